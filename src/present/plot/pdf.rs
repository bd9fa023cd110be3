//! The figures' SVG made into a vector PDF (svg2pdf) and a PNG (resvg), both from one
//! usvg tree with the embedded DejaVu Sans as its only font, so text is laid out the
//! same way in the bitmap as in the PDF (plotters' own bitmap text is not: it spaces
//! glyphs by their rounded advances, `escap ed`).

use std::sync::{Arc, OnceLock};
use svg2pdf::usvg;

/// How many PNG pixels a figure's unit (an SVG pixel) becomes: twice, for screens and
/// print that resolve finer than 96 dpi.
pub const PNG_SCALE: f32 = 2.0;

/// The font database: DejaVu Sans only, standing for every generic family.
fn fonts() -> Arc<usvg::fontdb::Database> {
    // Process-wide but immutable once made: a cache of the same fonts for every figure,
    // not state that anything changes.
    static DB: OnceLock<Arc<usvg::fontdb::Database>> = OnceLock::new();
    DB.get_or_init(|| {
        let mut db = usvg::fontdb::Database::new();
        db.load_font_data(dejavu::sans::regular().to_vec());
        db.load_font_data(dejavu::sans::bold().to_vec());
        let family = "DejaVu Sans";
        db.set_sans_serif_family(family);
        db.set_serif_family(family);
        db.set_monospace_family(family);
        Arc::new(db)
    })
    .clone()
}

/// The SVG document parsed, its text shaped with the embedded fonts.
fn tree(svg: &str) -> anyhow::Result<usvg::Tree> {
    let options = usvg::Options {
        font_family: "DejaVu Sans".into(),
        fontdb: fonts(),
        ..usvg::Options::default()
    };
    Ok(usvg::Tree::from_str(svg, &options)?)
}

/// A standalone PDF of an SVG document.
pub fn from_svg(svg: &str) -> anyhow::Result<Vec<u8>> {
    svg2pdf::to_pdf(
        &tree(svg)?,
        svg2pdf::ConversionOptions::default(),
        svg2pdf::PageOptions::default(),
    )
    .map_err(|e| anyhow::anyhow!("{e}"))
}

/// A PNG of an SVG document at [`PNG_SCALE`] pixels per unit, on white.
pub fn png_from_svg(svg: &str) -> anyhow::Result<Vec<u8>> {
    use resvg::tiny_skia;
    let tree = tree(svg)?;
    let size = tree.size().to_int_size().scale_by(PNG_SCALE);
    let size = size.ok_or_else(|| anyhow::anyhow!("an empty figure"))?;
    let mut pixmap = tiny_skia::Pixmap::new(size.width(), size.height())
        .ok_or_else(|| anyhow::anyhow!("a figure of {size:?} pixels"))?;
    pixmap.fill(tiny_skia::Color::WHITE);
    let scale = tiny_skia::Transform::from_scale(PNG_SCALE, PNG_SCALE);
    resvg::render(&tree, scale, &mut pixmap.as_mut());
    pixmap.encode_png().map_err(|e| anyhow::anyhow!("{e}"))
}

#[cfg(test)]
mod tests {
    const SVG: &str = r#"<svg xmlns="http://www.w3.org/2000/svg" width="120" height="40">
        <text x="4" y="24" font-family="sans-serif" font-size="14">median</text></svg>"#;

    #[test]
    fn a_pdf_with_the_text_embedded() {
        let pdf = super::from_svg(SVG).unwrap();
        assert!(pdf.starts_with(b"%PDF"));
        let text = String::from_utf8_lossy(&pdf);
        assert!(text.contains("DejaVu"), "the font is embedded");
    }

    #[test]
    fn a_png_of_the_same_drawing_with_its_text() {
        let png = super::png_from_svg(SVG).unwrap();
        let img = resvg::tiny_skia::Pixmap::decode_png(&png).unwrap();
        assert_eq!(
            (img.width(), img.height()),
            (240, 80),
            "twice the SVG's size"
        );
        let dark = img.pixels().iter().filter(|p| p.red() < 128).count();
        assert!(dark > 100, "the word is drawn: {dark} dark pixels");
        let blank = super::png_from_svg(&SVG.replace("median", "")).unwrap();
        let blank = resvg::tiny_skia::Pixmap::decode_png(&blank).unwrap();
        assert!(blank.pixels().iter().all(|p| p.red() == 255));
    }
}
