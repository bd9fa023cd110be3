//! The report as a PDF, written natively: no browser and no typesetting system, only
//! `pdf-writer` (through which `svg2pdf` already writes the figures' PDFs), the DejaVu
//! fonts bundled by the `dejavu` crate, and `svg2pdf` for the figures, which stay
//! vectors. The markdown the report renders is read into blocks (`parse`), set onto
//! A4 pages (`layout`, lines in `text`, tables in `table`) and written with
//! page numbers, contents lines that link to their pages, bookmarks and subset fonts
//! (`fonts`). docs/report-pdf.md says why this route and what it costs to build.

mod fonts;
mod layout;
mod parse;
mod table;
mod text;

pub use layout::Setting;

use fonts::{Fonts, STYLES, Style};
use layout::{Laid, Op, Target};
use pdf_writer::types::{ActionType, AnnotationType};
use pdf_writer::{Chunk, Content, Filter, Finish, Name, Pdf, Rect, Ref, Str, TextStr};
use std::collections::HashMap;
use std::path::Path;
use svg2pdf::usvg;

/// A figure converted for the PDF: its objects, its XObject and its size in points.
struct Figure {
    chunk: Chunk,
    xobject: Ref,
    size: (f32, f32),
}

/// The PDF of a report's markdown titled `title`, its figures read from `figures` as
/// SVG (`figures/STUDY/NAME.svg`), set as `setting` says.
pub fn document(
    markdown: &str,
    title: &str,
    figures: &Path,
    setting: &Setting,
) -> anyhow::Result<Vec<u8>> {
    let blocks = parse::blocks(markdown);
    let figures: Vec<Figure> = blocks
        .iter()
        .filter_map(|b| match b {
            parse::Block::Figure { study, name } => {
                Some(figure(&figures.join(study).join(format!("{name}.svg"))))
            }
            _ => None,
        })
        .collect::<anyhow::Result<_>>()?;
    let mut fonts = Fonts::new()?;
    let sizes: Vec<(f32, f32)> = figures.iter().map(|f| f.size).collect();
    let laid = layout::lay_out(&fonts, &blocks, &sizes, setting);
    Ok(write(&mut fonts, &laid, figures, title, setting))
}

/// The number of pages of a PDF this module wrote (for tests and checks): its page
/// objects, `/Type /Page` (not `/Pages`).
pub fn page_count(pdf: &[u8]) -> usize {
    let needle = b"/Type /Page";
    pdf.windows(needle.len() + 1)
        .filter(|w| w.starts_with(needle) && w[needle.len()] != b's')
        .count()
}

/// The font database figures are read with: the DejaVu faces their text is set in.
fn font_db() -> std::sync::Arc<usvg::fontdb::Database> {
    let mut db = usvg::fontdb::Database::new();
    db.load_font_data(dejavu::sans::regular().to_vec());
    db.load_font_data(dejavu::sans::bold().to_vec());
    db.set_sans_serif_family("DejaVu Sans");
    std::sync::Arc::new(db)
}

fn figure(path: &Path) -> anyhow::Result<Figure> {
    let svg = std::fs::read_to_string(path)
        .map_err(|e| anyhow::anyhow!("{}: cannot read the figure: {e}", path.display()))?;
    let options = usvg::Options {
        font_family: "DejaVu Sans".into(),
        fontdb: font_db(),
        ..usvg::Options::default()
    };
    let tree = usvg::Tree::from_str(&svg, &options)
        .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    let (chunk, xobject) = svg2pdf::to_chunk(&tree, svg2pdf::ConversionOptions::default())
        .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    // The size it was drawn for: its SVG pixels at PX_PER_CM, in points.
    let pt = (72.0 / 2.54 / crate::present::plot::PX_PER_CM) as f32;
    let size = (tree.size().width() * pt, tree.size().height() * pt);
    Ok(Figure {
        chunk,
        xobject,
        size,
    })
}

/// References of the document's objects, given out in order.
struct Refs(Ref);

impl Refs {
    fn next(&mut self) -> Ref {
        self.0.bump()
    }
}

fn write(
    fonts: &mut Fonts,
    laid: &Laid,
    figures: Vec<Figure>,
    title: &str,
    s: &Setting,
) -> Vec<u8> {
    let mut refs = Refs(Ref::new(1));
    let (catalog, tree, outline) = (refs.next(), refs.next(), refs.next());
    let font_refs: Vec<Ref> = STYLES.iter().map(|_| refs.next()).collect();
    let page_refs: Vec<Ref> = laid.pages.iter().map(|_| refs.next()).collect();
    let mut pdf = Pdf::new();
    // Every glyph drawn, recorded before the fonts are subset.
    fonts.glyphs(Style::Regular, "0123456789");
    for op in laid.pages.iter().flat_map(|p| &p.ops) {
        if let Op::Text { style, text, .. } = op {
            fonts.glyphs(*style, text);
        }
    }
    let remappers = fonts.remappers();
    let mut xobjects = Vec::new();
    for f in figures {
        let mut map = HashMap::new();
        let chunk = f
            .chunk
            .renumber(|old| *map.entry(old).or_insert_with(|| refs.next()));
        xobjects.push(map[&f.xobject]);
        pdf.extend(&chunk);
    }
    let total = laid.pages.len();
    for (i, page) in laid.pages.iter().enumerate() {
        let content = refs.next();
        let mut c = Content::new();
        for op in &page.ops {
            draw(&mut c, op, fonts, &remappers, laid);
        }
        let footer = format!("{}", i + 1);
        let size = 8.0;
        let x = s.page.0 / 2.0 - fonts.width(Style::Regular, &footer, size) / 2.0;
        show(
            &mut c,
            fonts,
            &remappers,
            Style::Regular,
            &footer,
            size,
            (x, s.bottom * 0.5),
        );
        let packed = miniz_oxide::deflate::compress_to_vec_zlib(&c.finish(), 6);
        pdf.stream(content, &packed).filter(Filter::FlateDecode);
        let annots: Vec<Ref> = page.links.iter().map(|_| refs.next()).collect();
        for ((rect, target), id) in page.links.iter().zip(&annots) {
            link(&mut pdf, *id, rect, target, laid, &page_refs);
        }
        let mut p = pdf.page(page_refs[i]);
        p.media_box(Rect::new(0.0, 0.0, s.page.0, s.page.1))
            .parent(tree)
            .contents(content)
            .annotations(annots);
        let mut res = p.resources();
        let mut f = res.fonts();
        for (style, r) in STYLES.iter().zip(&font_refs) {
            f.pair(style.resource(), *r);
        }
        f.finish();
        let mut x = res.x_objects();
        for (k, r) in xobjects.iter().enumerate() {
            x.pair(Name(format!("X{k}").as_bytes()), *r);
        }
        x.finish();
        res.finish();
        p.finish();
    }
    let mut chunk = Chunk::new();
    let mut alloc = || refs.next();
    // The bundled fonts are valid; subsetting them cannot fail but would be a bug.
    fonts
        .write(&mut chunk, &font_refs, &remappers, &mut alloc)
        .expect("the bundled fonts subset");
    pdf.extend(&chunk);
    bookmarks(&mut pdf, outline, laid, &page_refs, &mut refs);
    pdf.pages(tree)
        .kids(page_refs.iter().copied())
        .count(total as i32);
    pdf.catalog(catalog).pages(tree).outlines(outline);
    let info = refs.next();
    pdf.document_info(info)
        .title(TextStr(title))
        .creator(TextStr(concat!("searchlab ", env!("CARGO_PKG_VERSION"))));
    pdf.finish()
}

/// Text of `style` at `size` with its baseline starting at `at`.
fn show(
    c: &mut Content,
    fonts: &mut Fonts,
    remappers: &[subsetter::GlyphRemapper],
    style: Style,
    text: &str,
    size: f32,
    at: (f32, f32),
) {
    let remap = &remappers[style as usize];
    let bytes: Vec<u8> = fonts
        .glyphs(style, text)
        .into_iter()
        .flat_map(|g| remap.get(g).unwrap_or(0).to_be_bytes())
        .collect();
    c.begin_text()
        .set_font(style.resource(), size)
        .set_text_matrix([1.0, 0.0, 0.0, 1.0, at.0, at.1])
        .show(Str(&bytes))
        .end_text();
}

fn draw(
    c: &mut Content,
    op: &Op,
    fonts: &mut Fonts,
    remappers: &[subsetter::GlyphRemapper],
    laid: &Laid,
) {
    match op {
        Op::Text {
            x,
            y,
            size,
            style,
            text,
        } => show(c, fonts, remappers, *style, text, *size, (*x, *y)),
        Op::Rule { x, y, w, weight } => {
            c.set_line_width(*weight)
                .move_to(*x, *y)
                .line_to(x + w, *y)
                .stroke();
        }
        Op::Figure { index, x, y, w, h } => {
            c.save_state()
                .transform([*w, 0.0, 0.0, *h, *x, *y])
                .x_object(Name(format!("X{index}").as_bytes()))
                .restore_state();
        }
        Op::PageOf { anchor, x, y, size } => {
            let n = laid
                .anchors
                .get(anchor)
                .map_or("?".into(), |(p, _)| (p + 1).to_string());
            let w = fonts.width(Style::Regular, &n, *size);
            show(c, fonts, remappers, Style::Regular, &n, *size, (x - w, *y));
        }
    }
}

fn link(pdf: &mut Pdf, id: Ref, r: &[f32; 4], target: &Target, laid: &Laid, pages: &[Ref]) {
    let mut a = pdf.annotation(id);
    a.subtype(AnnotationType::Link)
        .rect(Rect::new(r[0], r[1], r[2], r[3]))
        .border(0.0, 0.0, 0.0, None);
    match target {
        Target::Anchor(anchor) => {
            let (page, top) = laid.anchors.get(anchor).copied().unwrap_or((0, 0.0));
            a.action()
                .action_type(ActionType::GoTo)
                .destination()
                .page(pages[page])
                .xyz(0.0, top + 6.0, None);
        }
        Target::Uri(uri) => {
            a.action()
                .action_type(ActionType::Uri)
                .uri(Str(uri.as_bytes()));
        }
    }
}

/// The bookmarks: each study (level 2) with its questions (level 3) beneath.
fn bookmarks(pdf: &mut Pdf, root: Ref, laid: &Laid, pages: &[Ref], refs: &mut Refs) {
    let items: Vec<&(usize, String, String)> = laid
        .outline
        .iter()
        .filter(|(l, ..)| *l >= 2 && *l <= 3)
        .collect();
    let ids: Vec<Ref> = items.iter().map(|_| refs.next()).collect();
    // Each item's parent: the root, or the study before it.
    let parent: Vec<Option<usize>> = (0..items.len())
        .map(|i| match items[i].0 {
            2 => None,
            _ => (0..i).rev().find(|&j| items[j].0 == 2),
        })
        .collect();
    let siblings =
        |p: Option<usize>| -> Vec<usize> { (0..items.len()).filter(|&i| parent[i] == p).collect() };
    let top = siblings(None);
    let mut o = pdf.outline(root);
    if let (Some(f), Some(l)) = (top.first(), top.last()) {
        o.first(ids[*f]).last(ids[*l]);
    }
    o.count(top.len() as i32);
    o.finish();
    for i in 0..items.len() {
        let sib = siblings(parent[i]);
        let at = sib.iter().position(|&j| j == i).unwrap_or(0);
        let kids = siblings(Some(i));
        let (_, title, anchor) = items[i];
        let (page, y) = laid.anchors.get(anchor).copied().unwrap_or((0, 0.0));
        let mut item = pdf.outline_item(ids[i]);
        item.title(TextStr(title))
            .parent(parent[i].map_or(root, |p| ids[p]));
        if at > 0 {
            item.prev(ids[sib[at - 1]]);
        }
        if let Some(&n) = sib.get(at + 1) {
            item.next(ids[n]);
        }
        if let (Some(f), Some(l)) = (kids.first(), kids.last()) {
            item.first(ids[*f])
                .last(ids[*l])
                .count(-(kids.len() as i32));
        }
        item.dest().page(pages[page]).xyz(0.0, y + 6.0, None);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn figures() -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("s")).unwrap();
        std::fs::write(
            dir.path().join("s/a.svg"),
            r##"<svg xmlns="http://www.w3.org/2000/svg" width="900" height="560"><rect x="10" y="10" width="200" height="100" fill="#0072b2"/><text x="20" y="200" font-size="20">median</text></svg>"##,
        )
        .unwrap();
        dir
    }

    #[test]
    fn a_report_with_contents_tables_figures_and_links() {
        let dir = figures();
        let mut md = String::from(
            "# T\n\n## Contents\n\n- [Study](#study)\n  - [1. Q](#1-q)\n\n## Study\n\n### 1. Q\n\n",
        );
        md.push_str("![cap](figures/s/a.png)\n\n*Figure: the caption* ([SVG](figures/s/a.svg), [PDF](figures/s/a.pdf))\n\n");
        md.push_str("| group | median |\n|---|---|\n| a | 1,234 |\n| b | 5 |\n\n*the table*\n\n");
        for _ in 0..80 {
            md.push_str("A paragraph long enough to wrap over more than one line of the page, with **bold** and `code` in it and a [link](https://example.org).\n\n");
        }
        let pdf = document(&md, "T", dir.path(), &Setting::report()).unwrap();
        assert!(pdf.starts_with(b"%PDF"));
        let text = String::from_utf8_lossy(&pdf);
        // The study opens page 2; eighty paragraphs take more pages.
        let pages = page_count(&pdf);
        assert!((3..10).contains(&pages), "{pages} pages");
        assert!(text.contains("/Subtype /Link"), "links");
        assert!(text.contains("/URI (https://example.org)"));
        assert!(text.contains("/S /GoTo"), "contents links go to pages");
        assert!(text.contains("/FontFile2"), "fonts embedded");
        assert!(
            text.contains("/Subtype /Form"),
            "the figure is a vector form"
        );
        assert!(text.contains("/Outlines"), "bookmarks");
        assert!(
            document(
                "![x](figures/s/missing.png)",
                "T",
                dir.path(),
                &Setting::report()
            )
            .is_err()
        );
    }

    #[test]
    fn contents_lines_show_the_page_of_their_heading() {
        let blocks = parse::blocks(
            "- [Study](#study)\n\n## Study\n\n### 1. Q\n\ntext\n\n## Next\n\n### 1. R\n\nmore\n",
        );
        let fonts = Fonts::new().unwrap();
        let laid = layout::lay_out(&fonts, &blocks, &[], &Setting::report());
        assert_eq!(laid.pages.len(), 2, "a page for each study");
        assert_eq!(laid.anchors["study"].0, 0);
        assert_eq!(laid.anchors["next"].0, 1);
        assert!(
            matches!(&laid.pages[0].ops[..], [Op::Text { .. }, Op::PageOf { anchor, .. }, ..] if anchor == "study")
        );
    }
}
