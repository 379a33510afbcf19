//! The page's own words: a notice, the narration for the aria-live
//! region, and the Go set-up being imported.

use workqueue_core::Scenario;

use crate::notice::Notice;

/// What the page's own words may be told.
pub enum UiAction {
    Notify(Option<Notice>),
    /// An information notice has been read: it goes, unless another took its place.
    ExpireNotice(String),
    /// A Go set-up being read, read, or refused (the lesson worker reads it).
    GoImport(GoImport),
}

#[derive(Default)]
pub struct UiState {
    pub notice: Option<Notice>,
    /// A sentence for the aria-live region, updated on user actions only.
    pub(crate) narration: String,
    /// The last Go set-up asked to be read, and what came of it.
    pub(crate) go_import: Option<GoImport>,
}

impl UiState {
    /// The page's own words: a notice shown or gone, an import's state.
    /// Returns whether anything on screen changed.
    pub(crate) fn apply(&mut self, action: UiAction) -> bool {
        match action {
            UiAction::Notify(n) => self.notice = n,
            UiAction::ExpireNotice(text) => {
                if self.notice.as_ref().is_none_or(|n| n.text != text) {
                    return false;
                }
                self.notice = None;
            }
            UiAction::GoImport(g) => self.go_import = Some(g),
        }
        true
    }
}

/// A controller's Go set-up, as the "Bring your controller" dialog shows it.
#[derive(Clone, Debug, PartialEq)]
pub enum GoImport {
    Reading,
    Read {
        scenario: Box<Scenario>,
        /// What was taken and what was not understood, `file:line: text` each.
        taken: Vec<String>,
        unread: Vec<String>,
    },
    Refused(String),
}
