//! controller-runtime and crossplane-runtime as a set-up uses them: the
//! builder's links, `controller.New`'s options over the manager's, the
//! manager, the config loader, `LimitRESTConfig`.

use super::outside::num;
use gosyn::ast::Call;

use super::record::CtrlRec;
use super::val::{Kind, Obj, Origin, Ty, V};
use super::{Ctx, Interp};
use crate::value::Options;

impl<'a> Interp<'a> {
    /// A link of controller-runtime's builder.
    pub(crate) fn builder_link(
        &mut self,
        cx: &Ctx<'a>,
        recv: V<'a>,
        name: &str,
        c: &'a Call,
    ) -> V<'a> {
        let id = recv.obj().unwrap_or_default();
        let args = self.args(cx, c);
        let type_of = |it: &Self, v: Option<&V<'a>>| {
            v.and_then(V::obj)
                .map(|o| it.heap[o].ty.name.clone())
                .unwrap_or_default()
        };
        let Kind::Builder(mut b) = self.heap[id].kind.clone() else {
            return V::Nil;
        };
        match name {
            "Named" => {
                if let Some(V::Str(n)) = args.first() {
                    b.name = Some(n.clone());
                }
            }
            "For" => b.kind = type_of(self, args.first()),
            "Watches" | "WatchesRawSource" | "Owns" => {
                let what = type_of(self, args.first());
                if name != "Owns" && b.kind.is_empty() {
                    b.kind = what.clone();
                }
                if name != "WatchesRawSource" {
                    self.note(false, cx.file, c.pos.0, format!("{name}({what}): events of {} enqueue the owner again, so each write of one re-triggers its reconcile; the playground does not feed writes back as events: count that follow-up reconcile (and its status update) in the writes, or add watch events", if what.is_empty() { "the watched objects".to_string() } else { format!("owned {what}s") }));
                }
            }
            "WithOptions" => b.options = args.first().cloned(),
            "Complete" | "Build" => {
                let site = b.at;
                let mut options = self.controller_options(b.options.as_ref(), (cx.file, c.pos.0));
                let wrapper = args
                    .first()
                    .and_then(V::obj)
                    .filter(|o| self.heap[*o].ty.name == "ratelimiter.Reconciler");
                match wrapper.and_then(|o| self.heap[o].field("global").cloned()) {
                    Some(V::Global { r, .. }) => options.crossplane = Some(r),
                    _ if options.crossplane.is_some() => {
                        self.note(false, cx.file, c.pos.0, format!("{name}: the reconciler is not wrapped in ratelimiter.NewReconciler(…, o.GlobalRateLimiter), so crossplane-runtime would not gate it by the global bucket; the playground gates every controller of a Crossplane scenario by it"));
                    }
                    _ => {}
                }
                let globals: Vec<usize> = wrapper
                    .and_then(|o| match self.heap[o].field("global") {
                        Some(V::Global { id, .. }) => Some(*id),
                        _ => None,
                    })
                    .into_iter()
                    .collect();
                self.global_buckets.extend(globals);
                let n = b.name.clone().unwrap_or_default();
                self.found(CtrlRec::new(n, b.kind.clone(), options, false, site));
                return match name {
                    "Build" => V::Tuple(vec![V::unknown("a controller"), V::Nil]),
                    _ => V::Nil,
                };
            }
            _ => {}
        }
        self.heap[id].kind = Kind::Builder(b);
        recv
    }

    /// A controller's options over the manager's; what cannot be read said.
    pub(crate) fn controller_options(&mut self, v: Option<&V<'a>>, at: (usize, usize)) -> Options {
        let base = self.manager_defaults();
        match v.map(|v| self.options_of(v)) {
            None => base,
            Some(Ok(o)) => super::record::merge(&base, &o),
            Some(Err(why)) => {
                self.note(
                    false,
                    at.0,
                    at.1,
                    format!("WithOptions: {why}: the defaults are used"),
                );
                base
            }
        }
    }

    /// A `rest.Config` from where it was made.
    pub(crate) fn config(&mut self, origin: Origin, at: (usize, usize)) -> V<'a> {
        let o = Obj::new(
            Ty {
                name: "Config".into(),
                path: "k8s.io/client-go/rest".into(),
                pkg: None,
            },
            Kind::Config { origin, at },
        );
        V::Ref(self.alloc(o))
    }

    /// crossplane-runtime's `LimitRESTConfig(cfg, R)`: QPS 5R, burst 10R.
    pub(crate) fn limit_rest_config(&mut self, cx: &Ctx<'a>, c: &'a Call) -> V<'a> {
        let args = self.args(cx, c);
        let cfg = args.first().cloned().unwrap_or(V::Nil);
        match num(args.get(1)).and_then(|r| crate::num::whole::<u32>(r, "R")) {
            Ok(r) => {
                let (qps, burst) = (5.0 * r as f64, 10.0 * r as f64);
                if let Some(id) = cfg.obj() {
                    self.heap[id].set("QPS", V::Num(qps));
                    self.heap[id].set("Burst", V::Num(burst));
                }
                self.note(true, cx.file, c.pos.0, format!("ratelimiter.LimitRESTConfig: the client's QPS {qps} and burst {burst} (5R and 10R for R = {r})"));
            }
            Err(why) => self.note(
                false,
                cx.file,
                c.pos.0,
                format!("ratelimiter.LimitRESTConfig: R: {why}"),
            ),
        }
        cfg
    }

    /// `ctrl.NewManager(cfg, opts)`: its options' `Controller` are every
    /// controller's defaults; its config is the controllers' client.
    pub(crate) fn manager(&mut self, cx: &Ctx<'a>, c: &'a Call) -> V<'a> {
        let args = self.args(cx, c);
        let config = args.first().cloned().unwrap_or(V::Nil);
        let mut o = Obj::new(
            Ty::default(),
            Kind::Manager {
                config: config.clone(),
            },
        );
        if let Some(id) = args.get(1).and_then(V::obj) {
            o.fields = self.heap[id].fields.clone();
        }
        let mgr = V::Ref(self.alloc(o));
        self.managers.push(super::ManagerRec {
            mgr: mgr.clone(),
            config,
            at: (cx.file, c.pos.0),
        });
        V::Tuple(vec![mgr, V::Nil])
    }
}
