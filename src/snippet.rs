//! The `<iframe>` a blog post pastes: HTML written by the page, so every
//! value in it goes through [`attribute`], the one escaping function for
//! text put into HTML.

/// The embed's height in a post: what a stage beside its narration needs,
/// in a 700 px column as on a phone.
pub const EMBED_HEIGHT: u32 = 640;

/// `text` as the value of a double-quoted HTML attribute: nothing in it can
/// end the attribute, open a tag or start a character reference.
pub fn attribute(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            c => out.push(c),
        }
    }
    out
}

/// What a screen reader names the frame: its lesson and step when it opens
/// one, so three frames of a post are told apart.
pub fn frame_title(lesson: Option<(&str, usize, &str)>) -> String {
    match lesson {
        Some((lesson, step, title)) => {
            format!("{lesson}, step {step}: {title} (Workqueue Playground)")
        }
        None => "A run in Workqueue Playground".to_string(),
    }
}

/// The `<iframe>` a post pastes for the playground at `src`, named `title`.
pub fn iframe(src: &str, title: &str) -> String {
    let (src, title) = (attribute(src), attribute(title));
    format!(
        "<iframe src=\"{src}\" title=\"{title}\" width=\"100%\" height=\"{EMBED_HEIGHT}\" style=\"border:0;max-width:700px;height:{EMBED_HEIGHT}px\" loading=\"lazy\"></iframe>"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nothing_in_a_value_leaves_its_attribute() {
        let hostile = "a\" onload=\"alert(1)' <script>&amp;";
        let written = iframe(hostile, hostile);
        assert!(!written.contains("\" onload"), "{written}");
        assert!(!written.contains("<script"), "{written}");
        assert_eq!(
            attribute(hostile),
            "a&quot; onload=&quot;alert(1)&#39; &lt;script&gt;&amp;amp;"
        );
        // Exactly the snippet's own attributes: src, title, width, height, style, loading.
        assert_eq!(written.matches("=\"").count(), 6, "{written}");
    }

    #[test]
    fn a_frame_is_named_by_its_lesson_and_step() {
        let t = frame_title(Some((
            "3. Per-item backoff & the first second",
            2,
            "The long tail",
        )));
        assert_eq!(
            t,
            "3. Per-item backoff & the first second, step 2: The long tail (Workqueue Playground)"
        );
        let written = iframe("https://h/p/?embed=1&lesson=backoff&step=2", &t);
        assert!(written.contains("src=\"https://h/p/?embed=1&amp;lesson=backoff&amp;step=2\""));
        assert!(written.contains("title=\"3. Per-item backoff &amp; the first second, step 2: The long tail (Workqueue Playground)\""));
    }
}
