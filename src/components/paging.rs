//! The narration paged to fit its panel: the blocks of a step's prose
//! (paragraphs, lists, figures; a paragraph taller than the panel by its
//! sentences, a sentence by its words), measured once per step and size, and
//! the page asked for shown. Measured in the browser: a page is what fits,
//! at the font and zoom the reader has.

/// The narration's pages in a panel of fixed height: the blocks (a
/// paragraph, a list, a figure) each page holds, measured once per step
/// and size, so a frame that only turns a page does no layout reads.
#[derive(Default)]
pub(crate) struct PageLayout {
    /// (lesson, step, body width, body height, blocks) the pages were laid for.
    laid_for: Option<((usize, usize), i32, i32, usize)>,
    /// The first block of each page.
    starts: Vec<usize>,
}

impl PageLayout {
    /// Shows page `page` of the narration in `body` and returns how many
    /// pages it takes. A block taller than the panel gets a page of its own.
    pub(crate) fn show(
        &mut self,
        body: &web_sys::HtmlElement,
        at: (usize, usize),
        page: usize,
    ) -> usize {
        let mut blocks = blocks(body);
        let key = (at, body.client_width(), body.client_height(), blocks.len());
        let same_place = self
            .laid_for
            .is_some_and(|(a, w, h, _)| (a, w, h) == (key.0, key.1, key.2));
        if self.laid_for != Some(key) && same_place && !self.starts.is_empty() {
            // Blocks came or went in the same step at the same size (an
            // answer revealed in the question's place): the pages keep the
            // blocks the reader has seen, and the check below moves on
            // whatever no longer fits the page shown.
            self.starts.retain(|&s| s < blocks.len());
            self.laid_for = Some(key);
        }
        // The block that opens the page on screen, where this step was laid
        // out before: a new layout of the same step (the room changed as an
        // answer was revealed) opens a page with it again, so the page being
        // read never loses its beginning to the page before.
        let anchor = self
            .laid_for
            .filter(|l| l.0 == at)
            .and_then(|_| self.starts.get(page).copied())
            .filter(|&a| a > 0);
        if self.laid_for != Some(key) {
            for b in &blocks {
                let _ = b.remove_attribute("hidden");
            }
            // Positions below are the browser's visual pixels, the room the
            // body's own CSS pixels: on a projector drawn at the room's scale
            // (CSS zoom) they differ by that scale, so the room is scaled too.
            let zoom = match body.offset_height() {
                0 => 1.0,
                h => body.get_bounding_client_rect().height() / f64::from(h),
            };
            let room = f64::from(body.client_height()) * zoom;
            // A paragraph taller than the panel is paged by its sentences,
            // and a sentence taller than the panel by its words.
            // (What a page holds: the room less a block's bottom margin, which
            // the panel keeps too, and a line a piece may gain when it starts
            // a page of its own.)
            let line = web_sys::window()
                .and_then(|w| w.get_computed_style(body).ok().flatten())
                .and_then(|cs| cs.get_property_value("font-size").ok())
                .and_then(|fs| fs.trim_end_matches("px").parse::<f64>().ok())
                .map_or(24.0, |px| px * 1.5)
                * zoom;
            let margin = 20.0 * zoom;
            // (A paragraph or list starts a line of its own: it needs no
            // more room on a page than it takes here. A sentence may gain a
            // line when it opens a page.)
            let too_tall = |b: &web_sys::Element| {
                let slack = if b.class_list().contains("sentence") {
                    line
                } else {
                    0.0
                };
                b.get_bounding_client_rect().height() > room - margin - slack
            };
            blocks = blocks
                .into_iter()
                .flat_map(|b| {
                    if matches!(b.tag_name().as_str(), "UL" | "OL" | "BLOCKQUOTE") && too_tall(&b) {
                        // A long list is paged by its items.
                        let _ = b.set_attribute("data-pages", "items");
                        let c = b.children();
                        (0..c.length()).filter_map(|i| c.item(i)).collect()
                    } else {
                        vec![b]
                    }
                })
                .flat_map(|b| {
                    if matches!(b.tag_name().as_str(), "P" | "LI") && too_tall(&b) {
                        split(&b, Cut::Sentences)
                    } else {
                        vec![b]
                    }
                })
                .flat_map(|b| {
                    if b.class_list().contains("sentence") && too_tall(&b) {
                        split(&b, Cut::Words)
                    } else {
                        vec![b]
                    }
                })
                .collect();
            // The pages up to the one on screen stay as they were (it opens
            // with its anchor again); those after it are laid out anew.
            let (mut starts, from) = match anchor.filter(|a| *a < blocks.len()) {
                Some(a) => (self.starts[..=page].to_vec(), a),
                None => (vec![0], 0),
            };
            let mut page_top = match from {
                0 => body.get_bounding_client_rect().top(),
                a => blocks[a].get_bounding_client_rect().top(),
            };
            // A sentence shown first on its page starts a line of its own,
            // so it may take one line more than measured inside its paragraph.
            for (i, b) in blocks.iter().enumerate().skip(from + 1) {
                let r = b.get_bounding_client_rect();
                let slack =
                    if b.class_list().contains("sentence") || b.class_list().contains("word") {
                        line
                    } else {
                        0.0
                    };
                if r.bottom() - page_top > room - slack - margin {
                    starts.push(i);
                    page_top = r.top();
                }
            }
            self.starts = starts;
            self.laid_for = Some(key);
        }
        let page = page.min(self.starts.len().max(1) - 1);
        let from = self.starts.get(page).copied().unwrap_or(0);
        let mut to = self.starts.get(page + 1).copied().unwrap_or(blocks.len());
        // (This runs after every render: only a block whose state changes is
        // written, so a playing frame touches no attribute.)
        let show = |to: usize| {
            for (i, b) in blocks.iter().enumerate() {
                let hide = !(from..to).contains(&i);
                if b.has_attribute("hidden") != hide {
                    let _ = if hide {
                        b.set_attribute("hidden", "")
                    } else {
                        b.remove_attribute("hidden")
                    };
                }
            }
        };
        show(to);
        // The page as shown is the last word: where it still spills (a piece
        // that wrapped otherwise on its own), its last block opens the next
        // page (the next page is checked the same way when it is shown),
        // until it fits or holds one block.
        while body.scroll_height() > body.client_height() + 1 && to - from > 1 {
            to -= 1;
            match self.starts.get_mut(page + 1) {
                Some(next) => *next = to,
                None => self.starts.push(to),
            }
            show(to);
        }
        self.starts.len().max(1)
    }
}

/// The narration's blocks: each paragraph, list or figure of the prose (a
/// paragraph already split into sentences, each sentence), and each other
/// part of the body (a goal, an action, a comparison's figures). An element
/// marked `data-pages` is paged by its children.
fn blocks(body: &web_sys::HtmlElement) -> Vec<web_sys::Element> {
    fn expand(el: web_sys::Element, out: &mut Vec<web_sys::Element>) {
        let c = el.children();
        for child in (0..c.length()).filter_map(|i| c.item(i)) {
            if child.has_attribute("data-pages") {
                expand(child, out);
            } else {
                out.push(child);
            }
        }
    }
    let mut out = Vec::new();
    expand(body.clone().into(), &mut out);
    out
}

/// Where [`split`] cuts a paragraph's text.
#[derive(Clone, Copy, PartialEq)]
enum Cut {
    /// After `.`, `!` or `?` and a space.
    Sentences,
    /// After each space.
    Words,
}

/// Splits an element's text into one `<span class="sentence">` (or
/// `"word"`) per piece, its inline markup kept whole inside them, so it can
/// be paged piece by piece. The paragraph is the worker's HTML, written once
/// per step: Yew leaves it alone until the step's text changes.
fn split(el: &web_sys::Element, cut: Cut) -> Vec<web_sys::Element> {
    let Some(doc) = el.owner_document() else {
        return vec![el.clone()];
    };
    let class = if cut == Cut::Words {
        "word"
    } else {
        "sentence"
    };
    let nodes = el.child_nodes();
    let nodes: Vec<web_sys::Node> = (0..nodes.length()).filter_map(|i| nodes.item(i)).collect();
    let mut spans: Vec<web_sys::Element> = Vec::new();
    let mut current: Option<web_sys::Element> = None;
    let mut span = |current: &mut Option<web_sys::Element>| {
        current
            .get_or_insert_with(|| {
                let s = doc.create_element("span").expect("a span");
                s.set_class_name(class);
                spans.push(s.clone());
                s
            })
            .clone()
    };
    for node in nodes {
        if node.node_type() != web_sys::Node::TEXT_NODE {
            let _ = span(&mut current).append_child(&node);
            continue;
        }
        let text = node.text_content().unwrap_or_default();
        let mut rest = text.as_str();
        while !rest.is_empty() {
            let end = rest
                .char_indices()
                .zip(rest.chars().skip(1))
                .find(|((_, c), next)| match cut {
                    Cut::Sentences => matches!(c, '.' | '!' | '?') && *next == ' ',
                    Cut::Words => *c != ' ' && *next == ' ',
                })
                .map(|((i, c), _)| i + c.len_utf8() + 1);
            let (piece, after) = rest.split_at(end.unwrap_or(rest.len()));
            let _ = span(&mut current).append_child(&doc.create_text_node(piece));
            if end.is_some() {
                current = None;
            }
            rest = after;
        }
    }
    el.set_text_content(None);
    for s in &spans {
        let _ = el.append_child(s);
    }
    let _ = el.set_attribute("data-pages", class);
    spans
}
