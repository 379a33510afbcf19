//! Lesson prose: the light Markdown a trainer writes (paragraphs, emphasis,
//! code, lists, quotes, smaller headings) as page elements. Raw HTML and
//! links' targets are shown as text, never as markup: a lesson file from
//! anyone is safe to open.

use pulldown_cmark::{Event, HeadingLevel, Parser, Tag, TagEnd};
use yew::prelude::*;
use yew::virtual_dom::{VTag, VText};

/// `source` as elements, inside a `div` of class `class`.
pub fn render(source: &str, class: &'static str) -> Html {
    // Open elements, innermost last; each collects its children.
    let mut stack: Vec<(Option<VTag>, Vec<Html>)> = vec![(None, Vec::new())];
    let push = |stack: &mut Vec<(Option<VTag>, Vec<Html>)>, node: Html| {
        stack.last_mut().expect("the root stays").1.push(node);
    };
    for event in Parser::new(source) {
        match event {
            Event::Start(tag) => {
                let name = match tag {
                    Tag::Paragraph => "p",
                    Tag::Emphasis => "em",
                    Tag::Strong => "strong",
                    Tag::Strikethrough => "s",
                    Tag::List(Some(_)) => "ol",
                    Tag::List(None) => "ul",
                    Tag::Item => "li",
                    Tag::BlockQuote(_) => "blockquote",
                    Tag::CodeBlock(_) => "pre",
                    Tag::Heading { level, .. } if level <= HeadingLevel::H3 => "h4",
                    Tag::Heading { .. } => "h5",
                    // A link keeps its words; its target is not followed.
                    _ => "span",
                };
                stack.push((Some(VTag::new(name)), Vec::new()));
            }
            Event::End(end) => {
                if stack.len() > 1 {
                    let (tag, children) = stack.pop().expect("checked");
                    let mut tag = tag.expect("only the root has none");
                    tag.add_children(children);
                    if matches!(end, TagEnd::CodeBlock) {
                        tag.add_attribute("class", "code");
                    }
                    push(&mut stack, tag.into());
                }
            }
            Event::Code(code) => {
                let mut tag = VTag::new("code");
                tag.add_child(VText::new(code.to_string()).into());
                push(&mut stack, tag.into());
            }
            Event::Text(t) | Event::Html(t) | Event::InlineHtml(t) => {
                push(&mut stack, VText::new(t.to_string()).into())
            }
            Event::SoftBreak => push(&mut stack, VText::new(" ").into()),
            Event::HardBreak => push(&mut stack, VTag::new("br").into()),
            Event::Rule => push(&mut stack, VTag::new("hr").into()),
            _ => {}
        }
    }
    // Unclosed elements (a cut-off file) still show what they hold.
    while stack.len() > 1 {
        let (tag, children) = stack.pop().expect("checked");
        let mut tag = tag.expect("only the root has none");
        tag.add_children(children);
        push(&mut stack, tag.into());
    }
    let (_, root) = stack.pop().expect("the root");
    html! { <div class={class}>{ for root }</div> }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Renders natively to text, the way a test can read it.
    fn text(source: &str) -> String {
        let html = render(source, "t");
        format!("{html:?}")
    }

    #[test]
    fn raw_html_is_text_and_emphasis_is_markup() {
        let out = text("Hello *there* <script>alert(1)</script> `code`");
        assert!(out.contains("\"em\""), "{out}");
        assert!(out.contains("VText { text: \"<script>\" }"), "kept as text: {out}");
        assert!(!out.contains("(\"script\")"), "never an element: {out}");
        assert!(out.contains("\"code\""), "{out}");
    }
}
