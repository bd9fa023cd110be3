//! The report as one self-contained HTML page, for any browser and for printing: the
//! markdown rendered with pulldown-cmark, every figure inline as SVG (no file beside it
//! is needed), headings with anchors for the table of contents, tables styled for
//! reading, and a print stylesheet that keeps figures, captions and tables off page
//! breaks. A small script marks on the page how many figures drew, which the tests read
//! in a headless browser.

use pulldown_cmark::{CowStr, Event, Options, Parser, Tag, TagEnd};
use std::path::Path;

const STYLE: &str = r#"
body { font-family: "DejaVu Sans", "Helvetica Neue", Arial, sans-serif; line-height: 1.5;
       max-width: 62rem; margin: 2rem auto; padding: 0 1rem; color: #1a1a1a; }
h1, h2, h3 { line-height: 1.25; }
h2 { border-bottom: 1px solid #ccc; padding-bottom: .2rem; margin-top: 2.5rem; }
table { border-collapse: collapse; margin: 1rem 0; font-size: .9rem; }
th, td { border: 1px solid #ccc; padding: .25rem .6rem; text-align: left; vertical-align: top; }
th { background: #f2f2f2; }
tr:nth-child(even) td { background: #fafafa; }
td { font-variant-numeric: tabular-nums; }
svg.figure { display: block; max-width: 100%; height: auto; margin: 1rem auto .3rem; }
p:has(> svg.figure) + p { font-size: .9rem; color: #333; margin-top: 0; }
code { font-size: .9em; }
@media print {
  body { max-width: none; margin: 0; font-size: 10pt; }
  a { color: inherit; text-decoration: none; }
  h2 { break-before: page; }
  h2, h3 { break-after: avoid; }
  table, tr, svg.figure, p:has(> svg.figure) { break-inside: avoid; }
  p:has(> svg.figure) { break-after: avoid; }
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

/// The page of a report's markdown; figures linked as `figures/NAME.png` are read from
/// `figures` (their SVG) and put inline.
pub fn page(markdown: &str, title: &str, figures: &Path) -> anyhow::Result<String> {
    let mut events: Vec<Event> = Parser::new_ext(markdown, Options::ENABLE_TABLES).collect();
    name_headings(&mut events);
    let events = inline_figures(events, figures)?;
    let mut body = String::new();
    pulldown_cmark::html::push_html(&mut body, events.into_iter());
    Ok(format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>{}</title>\n<style>{STYLE}</style>\n<script>{CHECK}</script>\n</head>\n<body>\n{body}</body>\n</html>\n",
        escape(title)
    ))
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

/// Replaces each image of a figure (`figures/NAME.png`) by its SVG, inline, with the
/// image's text as its accessible name.
fn inline_figures<'a>(events: Vec<Event<'a>>, figures: &Path) -> anyhow::Result<Vec<Event<'a>>> {
    let mut out = Vec::with_capacity(events.len());
    let mut iter = events.into_iter();
    while let Some(e) = iter.next() {
        let Event::Start(Tag::Image { dest_url, .. }) = &e else {
            out.push(e);
            continue;
        };
        let Some(name) = dest_url
            .strip_prefix("figures/")
            .and_then(|n| n.strip_suffix(".png"))
        else {
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
        let path = figures.join(format!("{name}.svg"));
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
    format!(
        "<svg class=\"figure\" role=\"img\" aria-label=\"{}\"{view_box}{}",
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

    #[test]
    fn figures_go_inline_and_headings_get_anchors() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("a.svg"),
            "<?xml version=\"1.0\"?>\n<svg width=\"900\" height=\"560\" xmlns=\"http://www.w3.org/2000/svg\"><rect/></svg>",
        )
        .unwrap();
        let md =
            "# T\n\n## A & b: c\n\n![cap & x](figures/a.png)\n\n| a | b |\n|---|---|\n| 1 | 2 |\n";
        let html = page(md, "T", dir.path()).unwrap();
        assert!(html.contains("<h2 id=\"a--b-c\">"), "{html}");
        assert!(html.contains("<svg class=\"figure\" role=\"img\" aria-label=\"cap &amp; x\" viewBox=\"0 0 900 560\" width=\"900\""), "{html}");
        assert!(!html.contains("<img") && !html.contains("<?xml"));
        assert!(html.contains("<table>") && html.contains("@media print"));
        assert!(page("![x](figures/missing.png)", "T", dir.path()).is_err());
    }
}
