//! Go's scopes: a block's names, its enclosing blocks' up to the
//! function's, then the package's. A name is never looked up in another
//! function's locals, nor in another file's.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use super::val::V;

/// One block's names, and the block around it.
#[derive(Debug, Default)]
pub(crate) struct Frame<'a> {
    vars: RefCell<HashMap<String, V<'a>>>,
    parent: Option<Scope<'a>>,
}

/// A block's scope, shared with the closures made in it.
pub(crate) type Scope<'a> = Rc<Frame<'a>>;

/// A function's outermost scope (its parameters).
pub(crate) fn root<'a>() -> Scope<'a> {
    Rc::new(Frame::default())
}

/// A block inside `parent`.
pub(crate) fn child<'a>(parent: &Scope<'a>) -> Scope<'a> {
    Rc::new(Frame {
        vars: RefCell::default(),
        parent: Some(parent.clone()),
    })
}

impl<'a> Frame<'a> {
    /// The value of `name` in this block or one around it.
    pub(crate) fn get(&self, name: &str) -> Option<V<'a>> {
        let mut cur = Some(self);
        while let Some(f) = cur {
            if let Some(v) = f.vars.borrow().get(name) {
                return Some(v.clone());
            }
            cur = f.parent.as_deref();
        }
        None
    }

    /// `name := v`: a new name in this block.
    pub(crate) fn define(&self, name: &str, v: V<'a>) {
        if name != "_" {
            self.vars.borrow_mut().insert(name.to_string(), v);
        }
    }

    /// `name = v`: the block that has it; false when none does (a
    /// package's variable).
    pub(crate) fn set(&self, name: &str, v: V<'a>) -> bool {
        let mut cur = Some(self);
        while let Some(f) = cur {
            if let Some(slot) = f.vars.borrow_mut().get_mut(name) {
                *slot = v;
                return true;
            }
            cur = f.parent.as_deref();
        }
        false
    }
}
