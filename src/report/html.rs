//! The report as one self-contained HTML page, for any browser and for printing: the
//! markdown rendered with pulldown-cmark, every figure inline as SVG (no file beside it
//! is needed), headings with anchors for the table of contents, tables styled for
//! reading, and a print stylesheet that keeps figures, captions and tables off page
//! breaks. A small script marks on the page how many figures drew, which the tests read
//! in a headless browser.
//!
//! Everything the markdown holds came from files anyone may have written (study text,
//! journal values, paths), so the page is made safe whatever they hold ([`sanitize`]):
//! raw HTML in the markdown is shown as text, links keep only `http:`, `https:`,
//! `mailto:`, relative and in-page targets (others become their text), and images other
//! than the report's own figures become their text. pulldown-cmark escapes all text and
//! attributes; the figures' SVG is the program's own drawing, whose text plotters
//! escapes. So no input can add an element, an event handler or a script to the page.

use pulldown_cmark::{CowStr, Event, Options, Parser, Tag, TagEnd};
use std::path::Path;

const STYLE: &str = r#"
body { font-family: "DejaVu Sans", "Helvetica Neue", Arial, sans-serif; line-height: 1.5;
       max-width: 62rem; margin: 2rem auto; padding: 0 1rem; color: #1a1a1a; }
h1, h2, h3 { line-height: 1.25; }
h2 { border-bottom: 1px solid #ccc; padding-bottom: .2rem; margin-top: 2.5rem; }
table { border-collapse: collapse; margin: .4rem 0 1rem; font-size: .9rem; }
caption { caption-side: top; text-align: left; font-size: .9rem; color: #333; padding: .2rem 0; }
th, td { border: 1px solid #ccc; padding: .25rem .6rem; text-align: left; vertical-align: top; }
th { background: #f2f2f2; }
tr:nth-child(even) td { background: #fafafa; }
td { font-variant-numeric: tabular-nums; }
td[style*="right"] { white-space: nowrap; }
figure { margin: 1rem 0; }
svg.figure { display: block; max-width: 100%; height: auto; margin: 0 auto .3rem; }
figcaption, caption { font-size: .9rem; color: #333; }
code { font-size: .9em; }
@page { margin: 14mm 13mm 16mm; }
@media print {
  body { max-width: none; margin: 0; padding: 0; font-size: 9.5pt; line-height: 1.38; }
  a { color: inherit; text-decoration: none; }
  h2 { margin-top: 1.2rem; }
  h2.study { break-before: page; }
  h2, h3 { break-after: avoid; }
  h3 { margin: 1rem 0 .4rem; }
  p { margin: .45rem 0; orphans: 2; widows: 2; }
  table { font-size: 8pt; margin: .2rem 0 .6rem; }
  th, td { padding: .1rem .35rem; }
  tr, figure, caption { break-inside: avoid; }
  caption { break-after: avoid; }
  figure { margin: .5rem 0; }
  svg.figure { width: var(--printed-width, auto); height: auto; max-width: 100%; max-height: 8.5cm; }
  .files { display: none; }
}
"#;

const CHECK: &str = r#"
window.addEventListener("load", function () {
  var figures = document.querySelectorAll("svg.figure");
  var drawn = 0;
  figures.forEach(function (f) { var b = f.getBoundingClientRect(); if (b.width > 10 && b.height > 10) drawn++; });
  var images = document.querySelectorAll("img");
  var loaded = 0;
  images.forEach(function (i) { if (i.complete && i.naturalWidth > 0) loaded++; });
  document.documentElement.dataset.figures = drawn + "/" + figures.length;
  document.documentElement.dataset.images = loaded + "/" + images.length;
});
"#;

/// The page of a report's markdown; figures linked as `figures/STUDY/NAME.png` are read
/// from `figures` (their SVG) and put inline.
pub fn page(markdown: &str, title: &str, figures: &Path) -> anyhow::Result<String> {
    let events: Vec<Event> = Parser::new_ext(markdown, Options::ENABLE_TABLES).collect();
    let mut events = sanitize(events);
    name_headings(&mut events);
    mark_studies(&mut events);
    let events = wrap_figures(inline_figures(events, figures)?);
    let events = number_tables(events);
    let mut body = String::new();
    pulldown_cmark::html::push_html(&mut body, events.into_iter());
    // What the sanitiser guarantees, checked on the page itself: a failure is a bug.
    let live = audit(&body);
    anyhow::ensure!(
        live.is_empty(),
        "the report's page would hold live markup: {}",
        live.join("; ")
    );
    Ok(format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>{}</title>\n<style>{STYLE}</style>\n<script>{CHECK}</script>\n</head>\n<body>\n{body}</body>\n</html>\n",
        escape(title)
    ))
}

/// The markdown's events made safe to render (see the module doc): raw HTML as text,
/// links only to safe targets, images only of figures.
pub fn sanitize(events: Vec<Event<'_>>) -> Vec<Event<'_>> {
    let mut out = Vec::with_capacity(events.len());
    // For each link open: whether its start was kept (so is its end).
    let mut links: Vec<bool> = Vec::new();
    let mut iter = events.into_iter();
    while let Some(e) = iter.next() {
        match e {
            Event::Html(t) | Event::InlineHtml(t) => out.push(Event::Text(t)),
            Event::Start(Tag::Link { ref dest_url, .. }) => {
                let keep = safe_url(dest_url);
                links.push(keep);
                if keep {
                    out.push(e);
                }
            }
            Event::End(TagEnd::Link) => {
                if links.pop().unwrap_or(false) {
                    out.push(e);
                }
            }
            Event::Start(Tag::Image { ref dest_url, .. }) if figure_name(dest_url).is_none() => {
                // Its alt text, and nothing else of it.
                for inner in iter.by_ref() {
                    match inner {
                        Event::End(TagEnd::Image) => break,
                        Event::Text(t) | Event::Code(t) => out.push(Event::Text(t)),
                        _ => {}
                    }
                }
            }
            other => out.push(other),
        }
    }
    out
}

/// A link target a reader may follow: in the page, a relative path, or `http:`,
/// `https:` or `mailto:`. Browsers ignore tabs, newlines and leading spaces in a
/// scheme, so those are dropped before it is read.
fn safe_url(url: &str) -> bool {
    let url: String = url
        .chars()
        .filter(|c| !c.is_ascii_whitespace() && !c.is_control())
        .collect();
    let scheme_end = url.find([':', '/', '?', '#']);
    match scheme_end {
        Some(i) if url[i..].starts_with(':') => {
            matches!(
                url[..i].to_ascii_lowercase().as_str(),
                "http" | "https" | "mailto"
            )
        }
        _ => true,
    }
}

/// The study folder and name of a report figure's link, `figures/STUDY/NAME.png`, when
/// both are names the program gives (letters, digits, `_`, `-`, `.`; not starting with
/// `.`), so that no link reaches a file outside the figures' folder.
pub(crate) fn figure_name(dest: &str) -> Option<(&str, &str)> {
    let rest = dest.strip_prefix("figures/")?.strip_suffix(".png")?;
    let (study, name) = rest.split_once('/')?;
    let ok = |s: &str| {
        !s.is_empty()
            && !s.starts_with('.')
            && s.chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
    };
    (ok(study) && ok(name)).then_some((study, name))
}

/// Elements that run or load something, or change where the page's links go.
pub const LIVE_ELEMENTS: &[&str] = &[
    "script",
    "iframe",
    "frame",
    "frameset",
    "object",
    "embed",
    "applet",
    "base",
    "meta",
    "form",
    "input",
    "button",
    "textarea",
    "select",
    "link",
    "img",
    "image",
    "video",
    "audio",
    "source",
    "track",
    "foreignobject",
    "animate",
    "set",
    "use",
    "style",
    "template",
    "portal",
    "noscript",
];

/// What in an HTML body could run, load or navigate: elements of [`LIVE_ELEMENTS`],
/// event-handler attributes (`on…`), and `href`/`src`/`action` targets with a scheme
/// other than `http`, `https` or `mailto`. Empty for a safe page. (In HTML, `<` followed
/// by a letter always opens an element, so escaped text cannot be mistaken for one.)
pub fn audit(body: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut rest = body;
    while let Some(at) = rest.find('<') {
        rest = &rest[at + 1..];
        if !rest.starts_with(|c: char| c.is_ascii_alphabetic()) {
            continue;
        }
        let end = tag_end(rest);
        let tag = &rest[..end];
        rest = &rest[end..];
        let name_len = tag
            .find(|c: char| c.is_ascii_whitespace() || c == '/' || c == '>')
            .unwrap_or(tag.len());
        let name = tag[..name_len].to_ascii_lowercase();
        if LIVE_ELEMENTS.contains(&name.as_str()) {
            found.push(format!("a <{name}> element"));
        }
        for (attr, value) in attributes(&tag[name_len..]) {
            if attr.starts_with("on") {
                found.push(format!("an {attr} handler on <{name}>"));
            }
            let target = matches!(
                attr.as_str(),
                "href" | "src" | "action" | "formaction" | "xlink:href" | "data"
            );
            if target && !safe_url(&value) {
                found.push(format!(
                    "a {attr} of {} on <{name}>",
                    crate::util::input::excerpt(&value)
                ));
            }
        }
    }
    found
}

/// Where a tag opened at the start of `text` ends (its `>`, outside quotes).
fn tag_end(text: &str) -> usize {
    let mut quote = None;
    for (i, c) in text.char_indices() {
        match (quote, c) {
            (None, '"' | '\'') => quote = Some(c),
            (Some(q), c) if c == q => quote = None,
            (None, '>') => return i,
            _ => {}
        }
    }
    text.len()
}

/// A tag's attributes (names lowercased), with character references in values decoded
/// as a browser would, so that `javascript&#58;` is read as the scheme it is.
fn attributes(mut text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    loop {
        text = text.trim_start_matches(|c: char| c.is_ascii_whitespace() || c == '/');
        if text.is_empty() || text.starts_with('>') {
            return out;
        }
        let n = text
            .find(|c: char| c.is_ascii_whitespace() || c == '=' || c == '>' || c == '/')
            .unwrap_or(text.len());
        let name = text[..n].to_ascii_lowercase();
        text = text[n..].trim_start();
        let mut value = String::new();
        if let Some(v) = text.strip_prefix('=') {
            let v = v.trim_start();
            let (val, after) = match v.chars().next() {
                Some(q @ ('"' | '\'')) => {
                    let close = v[1..].find(q).map_or(v.len(), |i| i + 1);
                    (&v[1..close], v.get(close + 1..).unwrap_or(""))
                }
                _ => {
                    let e = v
                        .find(|c: char| c.is_ascii_whitespace() || c == '>')
                        .unwrap_or(v.len());
                    (&v[..e], &v[e..])
                }
            };
            value = decode_entities(val);
            text = after;
        }
        out.push((name, value));
    }
}

/// Decodes numeric character references and the named ones a scheme could hide in.
fn decode_entities(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find('&') {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        let end = rest.find(';').filter(|&e| e <= 12);
        let decoded = end.and_then(|e| {
            let body = &rest[1..e];
            let code = match body.strip_prefix('#') {
                Some(h) if h.starts_with(['x', 'X']) => u32::from_str_radix(&h[1..], 16).ok(),
                Some(d) => d.parse().ok(),
                None => match body {
                    "amp" => Some(38),
                    "colon" => Some(58),
                    "Tab" => Some(9),
                    "NewLine" => Some(10),
                    "lt" => Some(60),
                    "gt" => Some(62),
                    "quot" => Some(34),
                    _ => None,
                },
            };
            code.and_then(char::from_u32).map(|c| (c, e))
        });
        match decoded {
            Some((c, e)) => {
                out.push(c);
                rest = &rest[e + 1..];
            }
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// The anchor of a heading whose markdown is `title`: that of its text as rendered
/// (markup dropped), as the page gives the heading itself, so that the table
/// of contents links to it whatever markup the title holds.
pub fn anchor_of(title: &str) -> String {
    let mut text = String::new();
    for e in sanitize(Parser::new_ext(title, Options::ENABLE_TABLES).collect()) {
        if let Event::Text(t) | Event::Code(t) = e {
            text.push_str(&t);
        }
    }
    crate::present::format::anchor(&text)
}

/// Gives every heading the anchor its text has in the table of contents.
fn name_headings(events: &mut [Event]) {
    let mut i = 0;
    while i < events.len() {
        if let Event::Start(Tag::Heading { .. }) = &events[i] {
            let mut text = String::new();
            let mut j = i + 1;
            while j < events.len() && !matches!(events[j], Event::End(TagEnd::Heading(_))) {
                if let Event::Text(t) | Event::Code(t) = &events[j] {
                    text.push_str(t);
                }
                j += 1;
            }
            if let Event::Start(Tag::Heading { id, .. }) = &mut events[i] {
                *id = Some(CowStr::from(crate::present::format::anchor(&text)));
            }
            i = j;
        }
        i += 1;
    }
}

/// Marks each level-2 heading that opens a study (a section holding questions), which
/// starts a new page in print.
fn mark_studies(events: &mut [Event]) {
    let level = |e: &Event| match e {
        Event::Start(Tag::Heading { level, .. }) => Some(*level as usize),
        _ => None,
    };
    for i in 0..events.len() {
        if level(&events[i]) != Some(2) {
            continue;
        }
        let questions = events[i + 1..]
            .iter()
            .filter_map(level)
            .take_while(|l| *l > 2)
            .any(|l| l == 3);
        if let (true, Event::Start(Tag::Heading { classes, .. })) = (questions, &mut events[i]) {
            classes.push(CowStr::from("study"));
        }
    }
}

/// Each paragraph that is one figure becomes a numbered `<figure>` with its caption
/// (the paragraph after it, `*Figure: …*`) as `<figcaption>`, the links to its files
/// in a span that print hides (they lead nowhere on paper).
fn wrap_figures(events: Vec<Event>) -> Vec<Event> {
    let mut out = Vec::with_capacity(events.len());
    let mut count = 0;
    let mut i = 0;
    while i < events.len() {
        let figure = match (&events[i], events.get(i + 1), events.get(i + 2)) {
            (
                Event::Start(Tag::Paragraph),
                Some(Event::InlineHtml(svg)),
                Some(Event::End(TagEnd::Paragraph)),
            ) if svg.starts_with("<svg class=\"figure\"") => svg.clone(),
            _ => {
                out.push(events[i].clone());
                i += 1;
                continue;
            }
        };
        count += 1;
        out.push(Event::Html(
            format!("<figure id=\"figure-{count}\">{figure}").into(),
        ));
        i += 3;
        i = figure_caption(&events, i, count, &mut out);
    }
    out
}

/// The caption paragraph at `i`, if there is one, as the figure's `<figcaption>`; closes
/// the figure. Returns where the events go on.
fn figure_caption<'a>(events: &[Event<'a>], i: usize, n: usize, out: &mut Vec<Event<'a>>) -> usize {
    let starts = matches!(
        (events.get(i), events.get(i + 1), events.get(i + 2)),
        (Some(Event::Start(Tag::Paragraph)), Some(Event::Start(Tag::Emphasis)), Some(Event::Text(t)))
            if t.starts_with("Figure: ")
    );
    if !starts {
        out.push(Event::Html("</figure>\n".into()));
        return i;
    }
    out.push(Event::Html(
        format!("<figcaption><strong>Figure {n}.</strong> ").into(),
    ));
    let mut j = i + 2;
    let mut in_caption = true;
    while j < events.len() && !matches!(events[j], Event::End(TagEnd::Paragraph)) {
        match &events[j] {
            Event::Text(t) if j == i + 2 => out.push(Event::Text(
                t.trim_start_matches("Figure: ").to_string().into(),
            )),
            Event::End(TagEnd::Emphasis) if in_caption => {
                in_caption = false;
                out.push(Event::Html("<span class=\"files\">".into()));
            }
            e => out.push(e.clone()),
        }
        j += 1;
    }
    if !in_caption {
        out.push(Event::Html("</span>".into()));
    }
    out.push(Event::Html("</figcaption></figure>\n".into()));
    j + 1
}

/// Numbers each table, puts the caption paragraph after it (`*…*`) in its `<caption>`,
/// and right-aligns its number columns.
fn number_tables(events: Vec<Event>) -> Vec<Event> {
    let mut out = Vec::with_capacity(events.len());
    let mut count = 0;
    let mut i = 0;
    while i < events.len() {
        let Event::Start(Tag::Table(aligns)) = &events[i] else {
            out.push(events[i].clone());
            i += 1;
            continue;
        };
        let end = (i..events.len())
            .find(|&j| matches!(events[j], Event::End(TagEnd::Table)))
            .unwrap_or(events.len() - 1);
        let numeric = number_columns(&events[i..end]);
        let aligns = aligns
            .iter()
            .enumerate()
            .map(|(c, a)| match numeric.get(c) {
                Some(true) => pulldown_cmark::Alignment::Right,
                _ => *a,
            })
            .collect();
        count += 1;
        let (caption, after) = table_caption(&events, end + 1);
        out.push(Event::Start(Tag::Table(aligns)));
        out.push(Event::Html(
            format!(
                "<caption id=\"table-{count}\"><strong>Table {count}.</strong> {caption}</caption>"
            )
            .into(),
        ));
        out.extend(events[i + 1..=end.min(events.len() - 1)].iter().cloned());
        i = after;
    }
    out
}

/// Which columns of a table hold numbers in every body cell (and a digit somewhere).
fn number_columns(events: &[Event]) -> Vec<bool> {
    let mut cells: Vec<Vec<String>> = Vec::new();
    let (mut body, mut column, mut text) = (false, 0, String::new());
    for e in events {
        match e {
            Event::End(TagEnd::TableHead) => body = true,
            Event::Start(Tag::TableRow) => column = 0,
            Event::Start(Tag::TableCell) => text.clear(),
            Event::Text(t) | Event::Code(t) => text.push_str(t),
            Event::End(TagEnd::TableCell) => {
                if body {
                    if cells.len() <= column {
                        cells.resize(column + 1, Vec::new());
                    }
                    cells[column].push(text.clone());
                }
                column += 1;
            }
            _ => {}
        }
    }
    cells
        .iter()
        .map(|col| {
            col.iter().all(|t| super::tables::is_number(t))
                && col.iter().any(|t| t.chars().any(|c| c.is_ascii_digit()))
        })
        .collect()
}

/// The caption of the table ending before `i`: the emphasised paragraph at `i`, as
/// HTML, and where the events go on after it.
fn table_caption(events: &[Event], i: usize) -> (String, usize) {
    let opens = matches!(
        (events.get(i), events.get(i + 1)),
        (
            Some(Event::Start(Tag::Paragraph)),
            Some(Event::Start(Tag::Emphasis))
        )
    );
    let Some(close) =
        (i..events.len()).find(|&j| matches!(events[j], Event::End(TagEnd::Paragraph)))
    else {
        return (String::new(), i);
    };
    if !opens || !matches!(events[close - 1], Event::End(TagEnd::Emphasis)) {
        return (String::new(), i);
    }
    let mut html = String::new();
    pulldown_cmark::html::push_html(&mut html, events[i + 2..close - 1].iter().cloned());
    (html, close + 1)
}

/// Replaces each image of a figure (`figures/STUDY/NAME.png`) by its SVG, inline, with
/// the image's text as its accessible name.
fn inline_figures<'a>(events: Vec<Event<'a>>, figures: &Path) -> anyhow::Result<Vec<Event<'a>>> {
    let mut out = Vec::with_capacity(events.len());
    let mut iter = events.into_iter();
    while let Some(e) = iter.next() {
        let Event::Start(Tag::Image { dest_url, .. }) = &e else {
            out.push(e);
            continue;
        };
        let Some((study, name)) = figure_name(dest_url) else {
            out.push(e);
            continue;
        };
        let mut alt = String::new();
        for inner in iter.by_ref() {
            match inner {
                Event::End(TagEnd::Image) => break,
                Event::Text(t) => alt.push_str(&t),
                _ => {}
            }
        }
        let path = figures.join(study).join(format!("{name}.svg"));
        let svg = std::fs::read_to_string(&path)
            .map_err(|e| anyhow::anyhow!("{}: cannot read the figure: {e}", path.display()))?;
        out.push(Event::InlineHtml(CowStr::from(figure_svg(&svg, &alt))));
    }
    Ok(out)
}

/// An SVG file's root element made to scale with the page (a viewBox from its size) and
/// labelled; the XML declaration dropped.
fn figure_svg(svg: &str, label: &str) -> String {
    let start = svg.find("<svg").unwrap_or(0);
    let svg = &svg[start..];
    let head_end = svg.find('>').unwrap_or(0);
    let head = &svg[..head_end];
    let attr = |name: &str| -> Option<f64> {
        let at = head.find(&format!(" {name}=\""))? + name.len() + 3;
        head[at..]
            .split('"')
            .next()?
            .trim_end_matches("px")
            .parse()
            .ok()
    };
    let view_box = match (head.contains("viewBox"), attr("width"), attr("height")) {
        (false, Some(w), Some(h)) => format!(" viewBox=\"0 0 {w} {h}\""),
        _ => String::new(),
    };
    // Printed at the width it was drawn for, so its text prints at the size asked.
    let printed = attr("width").map_or(String::new(), |w| {
        format!(
            " style=\"--printed-width: {:.2}cm\"",
            w / crate::present::plot::PX_PER_CM
        )
    });
    format!(
        "<svg class=\"figure\" role=\"img\" aria-label=\"{}\"{view_box}{printed}{}",
        escape(label),
        &svg[4..]
    )
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn figures() -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("s")).unwrap();
        std::fs::write(
            dir.path().join("s/a.svg"),
            "<?xml version=\"1.0\"?>\n<svg width=\"900\" height=\"560\" xmlns=\"http://www.w3.org/2000/svg\"><rect/></svg>",
        )
        .unwrap();
        dir
    }

    #[test]
    fn figures_go_inline_and_headings_get_anchors() {
        let dir = figures();
        let md = "# T\n\n## A & b: c\n\n![cap & x](figures/s/a.png)\n\n| a | b |\n|---|---|\n| 1 | 2 |\n";
        let html = page(md, "T", dir.path()).unwrap();
        assert!(html.contains("<h2 id=\"a--b-c\">"), "{html}");
        assert!(html.contains("<svg class=\"figure\" role=\"img\" aria-label=\"cap &amp; x\" viewBox=\"0 0 900 560\" style=\"--printed-width: 16.00cm\" width=\"900\""), "{html}");
        assert!(!html.contains("<img") && !html.contains("<?xml"));
        assert!(html.contains("<table>") && html.contains("@media print"));
        assert!(page("![x](figures/s/missing.png)", "T", dir.path()).is_err());
    }

    /// Every payload of the hardening pass, in every place markdown can carry it.
    pub(crate) const PAYLOADS: &[&str] = &[
        "<script>document.title='pwned'</script>",
        "<img src=x onerror=\"document.title='pwned'\">",
        "<svg onload=alert(1)>",
        "<iframe src=\"javascript:alert(1)\"></iframe>",
        "<object data=\"data:text/html,<script>alert(1)</script>\"></object>",
        "<base href=\"http://evil.example/\">",
        "<meta http-equiv=\"refresh\" content=\"0;url=http://evil.example\">",
        "<form action=\"http://evil.example\"><input name=x></form>",
        "[click](javascript:alert(1))",
        "[click](JaVa\tScRiPt:alert(1))",
        "[click](javascript&#58;alert(1))",
        "[click](data:text/html,<script>alert(1)</script>)",
        "<javascript:alert(1)>",
        "![x](javascript:alert(1))",
        "![x](figures/../../etc/passwd.png)",
        "<details open ontoggle=alert(1)>",
        "`code` then <b onmouseover=alert(1)>b</b>",
    ];

    #[test]
    fn no_payload_becomes_live_markup_and_safe_markdown_still_renders() {
        let dir = figures();
        for p in PAYLOADS {
            for md in [
                format!("## {p}\n\n{p}\n"),
                format!("| a |\n|---|\n| {p} |\n"),
                format!("*Figure: {p}*\n\n- {p}\n"),
            ] {
                let html = page(&md, p, dir.path()).unwrap();
                let body = &html[html.find("<body>").unwrap()..];
                assert!(audit(body).is_empty(), "{p}: {:?}", audit(body));
            }
        }
        let md = "**bold** *em* `code` [site](https://example.org/a?b=1) [file](figures/s/a.svg) [top](#t) [mail](mailto:a@b.c)\n";
        let html = page(md, "T", dir.path()).unwrap();
        for want in [
            "<strong>bold</strong>",
            "<em>em</em>",
            "<code>code</code>",
            "<a href=\"https://example.org/a?b=1\">site</a>",
            "<a href=\"figures/s/a.svg\">file</a>",
            "<a href=\"#t\">top</a>",
            "<a href=\"mailto:a@b.c\">mail</a>",
        ] {
            assert!(html.contains(want), "{want}: {html}");
        }
    }

    #[test]
    fn the_audit_finds_what_would_run() {
        for (body, says) in [
            ("<p>x</p><script>1</script>", "a <script> element"),
            (
                "<a href=\"JAVASCRIPT:x\">a</a>",
                "a href of \"JAVASCRIPT:x\"",
            ),
            (
                "<a href=\"java&#x73;cript:x\">a</a>",
                "a href of \"javascript:x\"",
            ),
            ("<p onclick='x'>a</p>", "an onclick handler on <p>"),
            ("<svg><use href=\"data:x\"/></svg>", "a <use> element"),
        ] {
            let found = audit(body);
            assert!(found.iter().any(|f| f.contains(says)), "{body}: {found:?}");
        }
        assert!(audit("<p>a &lt;script&gt; b</p><a href=\"x.svg\">x</a>").is_empty());
    }
}
