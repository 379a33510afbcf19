//! Keys that travel: after each render of the stage, every key chip whose
//! place changed glides from where it was to where it is now (FLIP with the
//! Web Animations API). Places are layout positions (the `offsetLeft` /
//! `offsetTop` chain, which ignores transforms), so a glide in flight is never
//! mistaken for a move. With `prefers-reduced-motion`, keys jump and the
//! stage's arrival highlight still marks where they landed.

use std::collections::HashMap;

use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlElement};
use yew::prelude::*;

/// How long a glide lasts (ms): long enough to follow, short enough to keep up.
pub(super) const GLIDE_MS: f64 = 400.0;

/// Where a key was laid out, and the glide it is making: the offset it
/// started from and when (real ms).
#[derive(Clone, Copy)]
struct Place {
    layout: (f64, f64),
    from: (f64, f64),
    start: f64,
}

impl Place {
    /// The offset from its layout position the key is drawn at, `t` ms in.
    fn offset(&self, t: f64) -> (f64, f64) {
        let p = ((t - self.start) / GLIDE_MS).clamp(0.0, 1.0);
        let left = (1.0 - p).powi(3); // ease-out cubic, as the keyframes
        (self.from.0 * left, self.from.1 * left)
    }

    fn gliding(&self, t: f64) -> bool {
        t < self.start + GLIDE_MS
    }
}

/// A marker on the element that carries a key's current glide: Yew may
/// replace a chip's element between frames, and a new one must resume it.
const MARK: &str = "__wqGlide";

/// The element's position in the page, ignoring transforms and counting
/// the scroll of the lanes it sits in.
fn layout_position(el: &HtmlElement) -> (f64, f64) {
    let (mut x, mut y) = (el.offset_left() as f64, el.offset_top() as f64);
    let mut parent = el.offset_parent();
    while let Some(p) = parent {
        let Ok(p) = p.dyn_into::<HtmlElement>() else {
            break;
        };
        x += (p.offset_left() - p.scroll_left()) as f64;
        y += (p.offset_top() - p.scroll_top()) as f64;
        parent = p.offset_parent();
    }
    (x, y)
}

fn reduced_motion() -> bool {
    web_sys::window()
        .and_then(|w| {
            w.match_media("(prefers-reduced-motion: reduce)")
                .ok()
                .flatten()
        })
        .is_some_and(|m| m.matches())
}

/// Animates `el` from offset `(dx, dy)` to rest over what is left of a
/// glide that started `elapsed` ms ago, and marks the element with it.
fn glide(el: &Element, place: &Place, now: f64) {
    let frame = |x: f64, y: f64| {
        let o = js_sys::Object::new();
        let _ = js_sys::Reflect::set(
            &o,
            &"transform".into(),
            &format!("translate({x}px, {y}px)").into(),
        );
        // Above the lanes and the other keys while it travels.
        let _ = js_sys::Reflect::set(&o, &"zIndex".into(), &"20".into());
        o
    };
    let (dx, dy) = place.offset(now);
    let keyframes = js_sys::Array::of2(&frame(dx, dy), &frame(0.0, 0.0));
    let options = js_sys::Object::new();
    let left = (place.start + GLIDE_MS - now).max(1.0);
    let _ = js_sys::Reflect::set(&options, &"duration".into(), &left.into());
    let _ = js_sys::Reflect::set(
        &options,
        &"easing".into(),
        &"cubic-bezier(0.33, 1, 0.68, 1)".into(),
    );
    let _ = js_sys::Reflect::set(el, &MARK.into(), &place.start.into());
    // `Element.animate` through JS: no web-sys feature needed, and a browser
    // without it simply shows the jump.
    if let Ok(animate) = js_sys::Reflect::get(el, &"animate".into()) {
        if let Some(f) = animate.dyn_ref::<js_sys::Function>() {
            let _ = f.call2(el, &keyframes, &options);
        }
    }
}

fn carries(el: &Element, start: f64) -> bool {
    js_sys::Reflect::get(el, &MARK.into())
        .ok()
        .and_then(|v| v.as_f64())
        == Some(start)
}

/// Call in the stage component: after every render, moved chips glide.
/// `enabled` is false while the stage shows a crowd (see [`crate::pacing::CROWD`]).
#[hook]
pub fn use_travel(enabled: bool) {
    // Each key's place on the stage, kept by the stage between renders.
    let places = use_mut_ref(HashMap::<String, Place>::new);
    use_effect(move || {
        if !enabled {
            // A crowd: the chips shown change every frame and reading their
            // layout would cost the frame budget. Start afresh afterwards.
            places.borrow_mut().clear();
            return;
        }
        let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
            return;
        };
        let Ok(chips) = doc.query_selector_all("[data-stage] .chip[data-key]") else {
            return;
        };
        let animate = !reduced_motion();
        let now = super::now_ms();
        {
            let mut places = places.borrow_mut();
            let mut seen = HashMap::with_capacity(chips.length() as usize);
            for i in 0..chips.length() {
                let Some(el) = chips.item(i).and_then(|n| n.dyn_into::<HtmlElement>().ok()) else {
                    continue;
                };
                let Some(key) = el.get_attribute("data-key") else {
                    continue;
                };
                let layout = layout_position(&el);
                let place = match places.get(&key) {
                    Some(p) if animate => {
                        let moved =
                            (p.layout.0 - layout.0).abs() + (p.layout.1 - layout.1).abs() > 1.0;
                        if moved {
                            // Start from where the key is drawn now (mid-glide or at rest).
                            let (ox, oy) = p.offset(now);
                            let from = (p.layout.0 + ox - layout.0, p.layout.1 + oy - layout.1);
                            let next = Place {
                                layout,
                                from,
                                start: now,
                            };
                            glide(&el, &next, now);
                            next
                        } else {
                            if p.gliding(now) && !carries(&el, p.start) {
                                // A new element for the same key: resume the glide.
                                glide(&el, p, now);
                            }
                            *p
                        }
                    }
                    _ => Place {
                        layout,
                        from: (0.0, 0.0),
                        start: f64::NEG_INFINITY,
                    },
                };
                seen.insert(key, place);
            }
            // Keys no longer drawn (aggregated or gone) are forgotten.
            *places = seen;
        }
    });
}
