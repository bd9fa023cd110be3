//! The report's fonts for the PDF: DejaVu Sans (regular, bold, oblique) and DejaVu Sans
//! Mono, bundled by the `dejavu` crate, so the PDF needs no system font. Owns the
//! metrics the layout measures text with (advance widths, no kerning) and writing each
//! font used into the PDF as a subset (a Type 0 font with a ToUnicode map, so the text
//! can be searched and copied).

use pdf_writer::types::{CidFontType, FontFlags, SystemInfo, UnicodeCmap};
use pdf_writer::{Chunk, Filter, Finish, Name, Rect, Ref, Str};
use std::collections::BTreeMap;
use subsetter::GlyphRemapper;
use ttf_parser::{Face, GlyphId};

/// A face of the report's text.
#[derive(Clone, Copy, PartialEq, Eq, Debug, PartialOrd, Ord)]
pub enum Style {
    Regular,
    Bold,
    Italic,
    Mono,
}

pub const STYLES: [Style; 4] = [Style::Regular, Style::Bold, Style::Italic, Style::Mono];

impl Style {
    fn data(self) -> &'static [u8] {
        match self {
            Style::Regular => dejavu::sans::regular(),
            Style::Bold => dejavu::sans::bold(),
            Style::Italic => dejavu::sans::oblique(),
            Style::Mono => dejavu::sans_mono::regular(),
        }
    }

    /// The font's resource name on a page.
    pub fn resource(self) -> Name<'static> {
        Name(match self {
            Style::Regular => b"F0",
            Style::Bold => b"F1",
            Style::Italic => b"F2",
            Style::Mono => b"F3",
        })
    }

    fn index(self) -> usize {
        self as usize
    }
}

/// The four faces, parsed once, and the glyphs each page uses of them.
pub struct Fonts {
    faces: Vec<Face<'static>>,
    /// Per face: every glyph used, with the text it stands for (for ToUnicode).
    used: Vec<BTreeMap<u16, char>>,
}

impl Fonts {
    pub fn new() -> anyhow::Result<Fonts> {
        let faces = STYLES
            .iter()
            .map(|s| Face::parse(s.data(), 0).map_err(|e| anyhow::anyhow!("bundled font: {e}")))
            .collect::<anyhow::Result<Vec<_>>>()?;
        Ok(Fonts {
            used: vec![BTreeMap::new(); faces.len()],
            faces,
        })
    }

    /// The glyph of `c` in `style` (the replacement glyph 0 if the face lacks it).
    fn glyph(&self, style: Style, c: char) -> u16 {
        let face = &self.faces[style.index()];
        face.glyph_index(c)
            .or_else(|| face.glyph_index('?'))
            .map_or(0, |g| g.0)
    }

    /// The width of `text` set in `style` at `size` points.
    pub fn width(&self, style: Style, text: &str, size: f32) -> f32 {
        let face = &self.faces[style.index()];
        let units: u32 = text
            .chars()
            .map(|c| {
                u32::from(
                    face.glyph_hor_advance(GlyphId(self.glyph(style, c)))
                        .unwrap_or(0),
                )
            })
            .sum();
        units as f32 * size / f32::from(face.units_per_em())
    }

    /// The glyphs of `text` in `style`, recorded as used.
    pub fn glyphs(&mut self, style: Style, text: &str) -> Vec<u16> {
        let glyphs: Vec<u16> = text.chars().map(|c| self.glyph(style, c)).collect();
        for (g, c) in glyphs.iter().zip(text.chars()) {
            self.used[style.index()].entry(*g).or_insert(c);
        }
        glyphs
    }

    /// The new numbering of each face's used glyphs in its subset.
    pub fn remappers(&self) -> Vec<GlyphRemapper> {
        self.used
            .iter()
            .map(|used| {
                let glyphs: Vec<u16> = used.keys().copied().collect();
                GlyphRemapper::new_from_glyphs_sorted(&glyphs)
            })
            .collect()
    }

    /// Writes each face as a subset Type 0 font with the reference `refs[style]`;
    /// `alloc` gives the references of its parts.
    pub fn write(
        &self,
        chunk: &mut Chunk,
        refs: &[Ref],
        remappers: &[GlyphRemapper],
        alloc: &mut impl FnMut() -> Ref,
    ) -> anyhow::Result<()> {
        for style in STYLES {
            let i = style.index();
            let face = &self.faces[i];
            let name = format!("SLAB{i}+{}", postscript_name(face));
            let (cid, descriptor, cmap, data) = (alloc(), alloc(), alloc(), alloc());
            chunk
                .type0_font(refs[i])
                .base_font(Name(name.as_bytes()))
                .encoding_predefined(Name(b"Identity-H"))
                .descendant_font(cid)
                .to_unicode(cmap);
            write_cid_font(chunk, face, &name, cid, descriptor, &remappers[i]);
            write_descriptor(chunk, face, &name, descriptor, data);
            let mut unicode = UnicodeCmap::new(Name(b"Custom"), SYSTEM_INFO);
            for (g, c) in &self.used[i] {
                if let Some(new) = remappers[i].get(*g) {
                    unicode.pair(new, *c);
                }
            }
            chunk.cmap(cmap, &unicode.finish());
            let subset = subsetter::subset(style.data(), 0, &remappers[i])
                .map_err(|e| anyhow::anyhow!("subsetting the bundled font: {e}"))?;
            let packed = miniz_oxide::deflate::compress_to_vec_zlib(&subset, 6);
            chunk.stream(data, &packed).filter(Filter::FlateDecode);
        }
        Ok(())
    }
}

const SYSTEM_INFO: SystemInfo = SystemInfo {
    registry: Str(b"Adobe"),
    ordering: Str(b"Identity"),
    supplement: 0,
};

fn postscript_name(face: &Face) -> String {
    face.names()
        .into_iter()
        .find(|n| n.name_id == ttf_parser::name_id::POST_SCRIPT_NAME)
        .and_then(|n| n.to_string())
        .unwrap_or_else(|| "DejaVuSans".into())
}

/// Thousandths of an em, as PDF font metrics are given.
fn per_mille(face: &Face, units: f32) -> f32 {
    units * 1000.0 / f32::from(face.units_per_em())
}

fn write_cid_font(
    chunk: &mut Chunk,
    face: &Face,
    name: &str,
    id: Ref,
    descriptor: Ref,
    remapper: &GlyphRemapper,
) {
    let mut cid = chunk.cid_font(id);
    cid.subtype(CidFontType::Type2)
        .base_font(Name(name.as_bytes()))
        .system_info(SYSTEM_INFO)
        .font_descriptor(descriptor)
        .default_width(0.0)
        .cid_to_gid_map_predefined(Name(b"Identity"));
    let widths: Vec<f32> = remapper
        .remapped_gids()
        .map(|g| {
            per_mille(
                face,
                f32::from(face.glyph_hor_advance(GlyphId(g)).unwrap_or(0)),
            )
        })
        .collect();
    cid.widths().consecutive(0, widths);
    cid.finish();
}

fn write_descriptor(chunk: &mut Chunk, face: &Face, name: &str, id: Ref, data: Ref) {
    let b = face.global_bounding_box();
    let m = |v: i16| per_mille(face, f32::from(v));
    let mut flags = FontFlags::SYMBOLIC;
    flags.set(FontFlags::FIXED_PITCH, face.is_monospaced());
    flags.set(FontFlags::ITALIC, face.is_italic());
    chunk
        .font_descriptor(id)
        .name(Name(name.as_bytes()))
        .flags(flags)
        .bbox(Rect::new(m(b.x_min), m(b.y_min), m(b.x_max), m(b.y_max)))
        .italic_angle(face.italic_angle())
        .ascent(m(face.ascender()))
        .descent(m(face.descender()))
        .cap_height(m(face.capital_height().unwrap_or(face.ascender())))
        .stem_v(10.0 + 0.244 * (f32::from(face.weight().to_number()) - 50.0))
        .font_file2(data);
}
