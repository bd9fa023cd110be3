//! Figures, drawn with plotters and saved as PNG, SVG and vector PDF (`pdf`): median
//! lines with interquartile bands or per-category points (`line`), box plots
//! (`boxplot`), heatmaps with a colour bar (`heatmap`), histograms (`histogram`),
//! ranking charts (`interval`) and labelled boards with a path (`board`), small
//! multiples of any of them (`facets`), on shared axes (`axis`) in a frame whose axis
//! titles fit their axes (`frame`), with legends (`legend`) and style (`style`), drawn
//! for a printed size (`print`), with text measured as the SVG sets it (`text`). They take plain numbers and labels, nothing of any domain.
//!
//! Text uses DejaVu Sans, embedded through the `dejavu` crate, so figures render the same
//! on a machine without any font package; the PDF converter loads the same font.

mod axis;
mod board;
mod boxplot;
mod facets;
mod frame;
mod heatmap;
mod histogram;
mod interval;
mod legend;
mod line;
mod pdf;
mod print;
mod style;
mod text;

pub use axis::{MAX_DECADES, clamp_log, minus};
pub use board::BoardPicture;
pub use boxplot::BoxPlot;
pub use facets::{Facets, grid};
pub use heatmap::Heatmap;
pub use histogram::Histogram;
pub use interval::{IntervalPlot, IntervalRow};
pub use legend::Swatch;
pub use line::{Band, LinePlot};
pub use print::{PX_PER_CM, Print};
pub use style::{PALETTE, SeriesStyle, StyleBook, series_style};

use anyhow::Context;
use plotters::coord::Shift;
use plotters::prelude::*;
use std::path::{Path, PathBuf};

const WIDTH: u32 = 900;
const HEIGHT: u32 = 560;

/// Something that can be drawn on any backend.
pub trait Figure {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> anyhow::Result<()>
    where
        DB::ErrorType: 'static;
    fn size(&self) -> (u32, u32) {
        (WIDTH, HEIGHT)
    }
}

/// Renders `fig` to `<stem>.svg`, and from that one drawing `<stem>.png` and
/// `<stem>.pdf`, each written atomically. Returns the PNG's path.
pub fn save(fig: &impl Figure, stem: &Path) -> anyhow::Result<PathBuf> {
    save_printed(fig, stem, None)
}

/// [`save`], the figure drawn for its printed size when `print` gives one (see
/// [`Print`]): its canvas sized so that its text prints at the size asked, the SVG's
/// width and height at [`PX_PER_CM`].
pub fn save_printed(
    fig: &impl Figure,
    stem: &Path,
    print: Option<&Print>,
) -> anyhow::Result<PathBuf> {
    style::register_fonts();
    let dir = stem.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let name = stem
        .file_name()
        .map_or_else(|| "figure".into(), |n| n.to_string_lossy().into_owned());
    let svg = match print {
        Some(p) => p.apply(&to_svg_of(fig, p.canvas())?, p.outer()),
        None => to_svg(fig)?,
    };
    let png = dir.join(format!("{name}.png"));
    let bitmap = pdf::png_from_svg(&svg).with_context(|| format!("drawing {name}.png"))?;
    crate::util::atomic::write(&png, &bitmap)?;
    crate::util::atomic::write(&dir.join(format!("{name}.svg")), svg.as_bytes())?;
    let pdf = pdf::from_svg(&svg).with_context(|| format!("converting {name}.svg to PDF"))?;
    crate::util::atomic::write(&dir.join(format!("{name}.pdf")), &pdf)?;
    Ok(png)
}

/// The figure as an SVG document.
fn to_svg(fig: &impl Figure) -> anyhow::Result<String> {
    to_svg_of(fig, fig.size())
}

/// The figure drawn on a canvas of `size` units, as an SVG document.
fn to_svg_of(fig: &impl Figure, size: (u32, u32)) -> anyhow::Result<String> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        fig.draw(&root)?;
        root.present().map_err(err)?;
    }
    Ok(svg)
}

fn err<E: std::fmt::Display>(e: E) -> anyhow::Error {
    anyhow::anyhow!("drawing: {e}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn files(dir: &Path) -> std::collections::BTreeSet<String> {
        std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect()
    }

    #[test]
    fn every_figure_renders_png_svg_and_pdf_with_text() {
        let dir = tempfile::tempdir().unwrap();
        let line = LinePlot {
            title: "Line".into(),
            x_label: "x".into(),
            y_label: "y".into(),
            series: vec![Band {
                name: "a".into(),
                points: vec![(1.0, 2.0, 1.0, 3.0), (10.0, 4.0, 3.0, 5.0)],
            }],
            log_x: true,
            ..LinePlot::default()
        };
        let png = save(&line, &dir.path().join("line")).unwrap();
        let svg = std::fs::read_to_string(dir.path().join("line.svg")).unwrap();
        let bitmap = resvg::tiny_skia::Pixmap::decode_png(&std::fs::read(&png).unwrap()).unwrap();
        assert_eq!(
            (bitmap.width(), bitmap.height()),
            (2 * WIDTH, 2 * HEIGHT),
            "the PNG is the SVG drawn at twice its size"
        );
        assert!(svg.contains(&format!("width=\"{WIDTH}\" height=\"{HEIGHT}\"")));
        // The PNG is the vector drawing rasterised: it equals the SVG rendered again.
        assert_eq!(
            std::fs::read(&png).unwrap(),
            pdf::png_from_svg(&svg).unwrap()
        );
        assert!(
            svg.contains("<svg") && svg.contains("<text") && svg.contains("Line"),
            "the title is drawn as text"
        );
        let pdf = std::fs::read(dir.path().join("line.pdf")).unwrap();
        assert!(pdf.starts_with(b"%PDF") && pdf.len() > 1000);
        type Draw = Box<dyn Fn(&Path) -> anyhow::Result<PathBuf>>;
        let figures: Vec<(&str, Draw)> = vec![
            (
                "box",
                Box::new(|p| {
                    let groups = vec![
                        ("a".into(), vec![1.0, 2.0, 3.0, 9.0]),
                        ("b".into(), vec![2.0]),
                    ];
                    save(
                        &BoxPlot {
                            groups,
                            ..BoxPlot::default()
                        },
                        p,
                    )
                }),
            ),
            (
                "heat",
                Box::new(|p| {
                    let fig = Heatmap {
                        x_ticks: vec!["1".into(), "2".into()],
                        y_ticks: vec!["a".into()],
                        values: vec![vec![Some(1.0), None]],
                        ..Heatmap::default()
                    };
                    save(&fig, p)
                }),
            ),
            (
                "hist",
                Box::new(|p| {
                    let series = vec![("a".into(), vec![1.0, 1.0, 2.0]), ("b".into(), vec![3.0])];
                    let fig = Histogram {
                        series,
                        bin_width: 1.0,
                        ..Histogram::default()
                    };
                    save(&fig, p)
                }),
            ),
            (
                "int",
                Box::new(|p| {
                    let rows = vec![IntervalRow {
                        label: "a".into(),
                        median: 1.0,
                        q1: 0.8,
                        q3: 1.2,
                        ci_low: 0.5,
                        ci_high: 1.5,
                        with_best: true,
                    }];
                    save(
                        &IntervalPlot {
                            rows,
                            ..IntervalPlot::default()
                        },
                        p,
                    )
                }),
            ),
            (
                "board",
                Box::new(|p| {
                    let fig = BoardPicture {
                        size: 2,
                        labels: vec!["1".into(), "1".into(), "1".into(), "G".into()],
                        path: vec![0, 1, 3],
                        start: Some(0),
                        goal: Some(3),
                        shaded: vec![2],
                        shaded_means: "unreachable".into(),
                        ..BoardPicture::default()
                    };
                    save(&fig, p)
                }),
            ),
        ];
        for (name, draw) in figures {
            draw(&dir.path().join(name)).unwrap();
            let pdf = std::fs::read(dir.path().join(format!("{name}.pdf"))).unwrap();
            assert!(pdf.starts_with(b"%PDF"), "{name}.pdf is a PDF");
        }
        let names = files(dir.path());
        assert_eq!(names.len(), 18, "{names:?}");
        assert!(
            names.iter().all(|n| !n.starts_with('.')),
            "no temporary file is left"
        );
    }

    #[test]
    fn no_log_range_hangs_a_figure() {
        let dir = tempfile::tempdir().unwrap();
        for (lo, hi) in [(1e-310, 1.0), (1e-300, 1e12), (f64::MIN_POSITIVE, f64::MAX)] {
            let started = std::time::Instant::now();
            let fig = LinePlot {
                series: vec![Band {
                    name: "t".into(),
                    points: vec![(lo, 1.0, 1.0, 1.0), (hi, 2.0, 2.0, 2.0)],
                }],
                log_x: true,
                log_y: true,
                ..LinePlot::default()
            };
            save(&fig, &dir.path().join("wide")).unwrap();
            let took = started.elapsed().as_secs_f64();
            assert!(took < 1.0, "[{lo:e}, {hi:e}] took {took} s");
        }
    }
}
