#!/usr/bin/env python3
"""Writes each built-in lesson's title and each step's title and first
paragraph (its runs of text, plain or in inline code, bold or emphasis),
into the built index.html (its
<script id="first-words" type="application/json">), so an embed's first paint
names its lesson and shows the step's first words before any wasm runs.

Run by scripts/lesson-views.sh (trunk's post-build hook) after the lessons
are answered: python3 scripts/first_words.py <staging dir>
"""
import glob
import json
import os
import re
import sys
from html.parser import HTMLParser


class FirstParagraph(HTMLParser):
    """The first <p> of a step's HTML, as runs of text, each plain or inside
    one of the inline tags the app draws (code, strong, em): the first
    paint draws the same runs, so its paragraph wraps and weighs as the
    app's does (Lighthouse then sees one largest paint, not two)."""

    INLINE = ("code", "strong", "em")

    def __init__(self):
        super().__init__()
        self.depth, self.done, self.runs, self.inline = 0, False, [], []

    def handle_starttag(self, tag, attrs):
        if tag == "p" and not self.done:
            self.depth += 1
        elif self.depth and not self.done and tag in self.INLINE:
            self.inline.append(tag)

    def handle_endtag(self, tag):
        if tag == "p" and self.depth:
            self.depth -= 1
            self.done = self.depth == 0
        elif self.depth and not self.done and tag in self.INLINE and self.inline:
            self.inline.pop()

    def handle_data(self, data):
        if self.depth and not self.done:
            tag = self.inline[-1] if self.inline else ""
            if self.runs and self.runs[-1][1] == tag:
                self.runs[-1][0] += data
            else:
                self.runs.append([data, tag])


def first_paragraph(text):
    """[[text, tag], ...]: tag is "" (plain), "code", "strong" or "em"."""
    p = FirstParagraph()
    p.feed(text)
    runs = [[re.sub(r"\s+", " ", t), tag] for t, tag in p.runs]
    if runs:
        runs[0][0] = runs[0][0].lstrip()
        runs[-1][0] = runs[-1][0].rstrip()
    return [r for r in runs if r[0]]


def main(staging):
    lessons = {}
    for path in sorted(glob.glob(os.path.join(staging, "lessons", "*.json"))):
        with open(path, encoding="utf-8") as f:
            lesson = json.load(f)["Lesson"]["lesson"]
        lessons[lesson["id"]] = {
            "title": lesson["title"],
            "steps": [[s["title"], first_paragraph(s["text"])] for s in lesson["steps"]],
        }
    # Inside a <script>: "</" never appears in the JSON (ensure_ascii keeps
    # it plain ASCII, and "<" is written as \u003c).
    data = json.dumps(lessons, separators=(",", ":")).replace("<", "\\u003c")
    index = os.path.join(staging, "index.html")
    with open(index, encoding="utf-8") as f:
        page = f.read()
    pattern = re.compile(r'(<script id="?first-words"? type="?application/json"?>)\{\}(</script>)')
    if not pattern.search(page):
        sys.exit("first_words.py: no empty first-words script in index.html")
    page = pattern.sub(lambda m: m.group(1) + data + m.group(2), page, count=1)
    with open(index, "w", encoding="utf-8") as f:
        f.write(page)
    print(f"first words of {len(lessons)} lessons, {len(data)} bytes", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1])
