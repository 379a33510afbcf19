//! What the page says above the stage: a line of information, or an error
//! that names what was refused.

#[derive(Clone, Debug, PartialEq)]
pub enum NoticeKind {
    Info,
    Error,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Notice {
    pub kind: NoticeKind,
    pub text: String,
}

impl Notice {
    pub fn info(text: impl Into<String>) -> Option<Notice> {
        Some(Notice {
            kind: NoticeKind::Info,
            text: text.into(),
        })
    }

    pub fn error(text: impl Into<String>) -> Option<Notice> {
        Some(Notice {
            kind: NoticeKind::Error,
            text: text.into(),
        })
    }
}
