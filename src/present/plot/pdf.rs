//! SVG to vector PDF (svg2pdf over usvg), with the figures' embedded DejaVu Sans loaded
//! into usvg's font database so text renders as text in the PDF.

use std::sync::{Arc, OnceLock};
use svg2pdf::usvg;

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

/// A standalone PDF of an SVG document.
pub fn from_svg(svg: &str) -> anyhow::Result<Vec<u8>> {
    let options = usvg::Options {
        font_family: "DejaVu Sans".into(),
        fontdb: fonts(),
        ..usvg::Options::default()
    };
    let tree = usvg::Tree::from_str(svg, &options)?;
    svg2pdf::to_pdf(
        &tree,
        svg2pdf::ConversionOptions::default(),
        svg2pdf::PageOptions::default(),
    )
    .map_err(|e| anyhow::anyhow!("{e}"))
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_pdf_with_the_text_embedded() {
        let svg = r#"<svg xmlns="http://www.w3.org/2000/svg" width="120" height="40">
            <text x="4" y="24" font-family="sans-serif" font-size="14">median</text></svg>"#;
        let pdf = super::from_svg(svg).unwrap();
        assert!(pdf.starts_with(b"%PDF"));
        let text = String::from_utf8_lossy(&pdf);
        assert!(text.contains("DejaVu"), "the font is embedded");
    }
}
