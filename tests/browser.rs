//! The HTML report in a real browser: headless Chromium (Debian's `chromium`) opens the
//! report written from the study of docs/studies.md, every figure draws, it prints to PDF and its
//! screenshot is not blank; printed on A4 and Letter, no page but one before a new study
//! (or the last) is more than a third empty (measured with poppler-utils). Asked to run
//! (`cargo test --release --test browser -- --ignored`, which `.ci/run` does when it can
//! install Chromium and poppler-utils), it fails when they are missing rather than skip.

mod common;

use common::run_in;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Chromium's path: `$CHROMIUM`, or Debian's.
fn chromium() -> PathBuf {
    let path = std::env::var_os("CHROMIUM")
        .map_or_else(|| PathBuf::from("/usr/bin/chromium"), PathBuf::from);
    assert!(
        path.is_file(),
        "{}: no Chromium (install Debian's chromium)",
        path.display()
    );
    path
}

/// Runs headless Chromium on `url` with `args`; returns its stdout.
fn headless(profile: &Path, url: &str, args: &[String]) -> String {
    let out = Command::new(chromium())
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
            "--virtual-time-budget=5000",
            &format!("--user-data-dir={}", profile.display()),
        ])
        .args(args)
        .arg(url)
        .output()
        .expect("Chromium runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// A report written from the study of `docs/studies.md` and its configs, in a folder of
/// its own.
fn report() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    // The configs it reads are in docs/configs.md and docs/studies.md.
    let readme: String = ["docs/configs.md", "docs/studies.md"]
        .iter()
        .map(|f| std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(f)).unwrap())
        .collect();
    std::fs::create_dir_all(dir.path().join("configs")).unwrap();
    std::fs::create_dir_all(dir.path().join("experiments")).unwrap();
    for block in readme
        .split("```toml\n")
        .skip(1)
        .map(|b| b.split("```").next().unwrap())
    {
        if block.contains("[experiment]") && block.contains("name = \"maze_") {
            let name = block
                .lines()
                .find_map(|l| l.strip_prefix("name = \""))
                .unwrap()
                .trim_end_matches('"');
            std::fs::write(dir.path().join(format!("configs/{name}.toml")), block).unwrap();
        } else if block.contains("[[question]]") && block.contains("maze_methods") {
            std::fs::write(dir.path().join("experiments/maze_methods.toml"), block).unwrap();
        }
    }
    let out = run_in(
        Some(dir.path()),
        &["report", "--study", "maze_methods", "--quiet"],
        "",
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    let html = dir.path().join("outputs/report/maze_methods.html");
    assert!(html.is_file());
    (dir, html)
}

#[test]
#[ignore = "needs Chromium: cargo test --release --test browser -- --ignored"]
fn the_html_report_renders_prints_and_is_not_blank() {
    let (dir, html) = report();
    let profile = dir.path().join("profile");
    let url = format!("file://{}", html.display());
    // Every figure draws and every image (there are none: figures are inline) loads.
    let dom = headless(&profile, &url, &["--dump-dom".into()]);
    let figures = dom
        .split("data-figures=\"")
        .nth(1)
        .and_then(|r| r.split('"').next())
        .expect("the page's check ran");
    let (drawn, all) = figures.split_once('/').unwrap();
    assert_eq!(drawn, all, "figures drawn: {figures}");
    assert!(all.parse::<u32>().unwrap() >= 2, "{figures}");
    assert!(
        dom.contains("data-images=\"0/0\""),
        "no <img>: every figure is inline"
    );
    // Printing gives a PDF of pages.
    let pdf = dir.path().join("report.pdf");
    headless(
        &profile,
        &url,
        &[
            format!("--print-to-pdf={}", pdf.display()),
            "--no-pdf-header-footer".into(),
        ],
    );
    let bytes = std::fs::read(&pdf).unwrap();
    assert!(bytes.starts_with(b"%PDF"), "a PDF");
    let pages = bytes
        .windows(10)
        .filter(|w| w == b"/Type /Pag" || w == b"/Type/Page")
        .count();
    assert!(
        pages >= 2 && bytes.len() > 20_000,
        "{pages} pages, {} bytes",
        bytes.len()
    );
    // The screenshot is far from blank: much larger than a blank page's.
    let shot = |url: &str, file: &str| {
        let path = dir.path().join(file);
        headless(
            &profile,
            url,
            &[
                format!("--screenshot={}", path.display()),
                "--window-size=1200,1600".into(),
            ],
        );
        std::fs::metadata(&path).unwrap().len()
    };
    let blank = shot("about:blank", "blank.png");
    let page = shot(&url, "page.png");
    assert!(
        page > 5 * blank,
        "screenshot {page} bytes against a blank page's {blank}"
    );
}

/// What each payload does when it runs: marks the page.
const MARK: &str = "document.documentElement.dataset.pwned";

#[test]
#[ignore = "needs Chromium: cargo test --release --test browser -- --ignored"]
fn no_payload_of_a_study_or_a_journal_runs_in_the_browser() {
    let p = common::toy_project();
    let out = run_in(Some(p.path()), &["run", "toy", "--quiet"], "");
    assert_eq!(out.code, 0, "{}", out.stderr);
    let payloads = [
        format!("<script>{MARK}='script'</script>"),
        format!("<img src=x onerror=\"{MARK}='img'\">"),
        format!("<svg onload=\"{MARK}='svg'\"></svg>"),
        format!("<details open ontoggle=\"{MARK}='details'\"></details>"),
        format!("<iframe srcdoc=\"<script>parent.{MARK}='iframe'</script>\"></iframe>"),
        format!(
            "<object data=\"data:text/html,<script>parent.{MARK}='object'</script>\"></object>"
        ),
        "<meta http-equiv=\"refresh\" content=\"0;url=about:blank\">".to_string(),
        "<base href=\"http://evil.example/\">".to_string(),
    ]
    .join(" ");
    // In a journal's value, shown by a rows block.
    let journal = p.path().join("outputs/toy/runs.jsonl");
    let text = std::fs::read_to_string(&journal).unwrap();
    let mut edited = String::new();
    for line in text.lines() {
        let mut v: serde_json::Value = serde_json::from_str(line).unwrap();
        for m in v["metrics"].as_array_mut().unwrap() {
            if m[0] == "best_maze" {
                m[1] = payloads.clone().into();
            }
        }
        edited.push_str(&format!("{v}\n"));
    }
    std::fs::write(&journal, edited).unwrap();
    let quoted = payloads.replace('\\', "\\\\").replace('"', "\\\"");
    std::fs::write(
        p.path().join("experiments/evil.toml"),
        format!(
            "title = \"T {quoted}\"\nintro = \"I {quoted}\"\n\n[[question]]\ntitle = \"Q {quoted}\"\nanswer = \"A {quoted}\"\n\n\
             [[question.block]]\nkind = \"text\"\ntext = \"X {quoted}\"\n\n\
             [[question.block]]\nkind = \"box\"\nexperiment = \"toy\"\nx = \"decay\"\nmetric = \"best_path_length\"\ncaption = \"C {quoted}\"\n\n\
             [[question.block]]\nkind = \"rows\"\nexperiment = \"toy\"\ncolumns = [\"replicate\", \"best_maze\"]\nsort = \"replicate\"\n"
        ),
    )
    .unwrap();
    let out = run_in(
        Some(p.path()),
        &["report", "--study", "evil", "--quiet"],
        "",
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    let html = p.path().join("outputs/report/evil.html");
    let url = format!("file://{}", html.display());
    let dom = headless(&p.path().join("profile"), &url, &["--dump-dom".into()]);
    assert!(
        dom.contains("data-figures=\""),
        "the page itself loaded and its check ran"
    );
    assert!(!dom.contains("data-pwned"), "a payload ran: {dom}");
    assert!(
        dom.contains("&lt;script&gt;"),
        "the payloads are shown as text"
    );
}

/// The share of a page's height below its last inked row, for each page of `pdf`
/// (poppler's `pdftoppm` renders them to grey maps at 24 dpi).
fn empty_below(pdf: &Path) -> Vec<f64> {
    let dir = pdf.with_extension("pages");
    std::fs::create_dir_all(&dir).unwrap();
    let out = Command::new("pdftoppm")
        .args(["-r", "24", "-gray"])
        .arg(pdf)
        .arg(dir.join("p"))
        .output()
        .expect("pdftoppm runs (install Debian's poppler-utils)");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    files
        .iter()
        .map(|f| {
            let bytes = std::fs::read(f).unwrap();
            // P5 WIDTH HEIGHT MAXVAL, one whitespace byte, then the rows.
            let mut fields = bytes.splitn(5, u8::is_ascii_whitespace);
            assert_eq!(fields.next(), Some(&b"P5"[..]));
            let mut num = || -> usize {
                std::str::from_utf8(fields.next().unwrap())
                    .unwrap()
                    .parse()
                    .unwrap()
            };
            let (w, h, _) = (num(), num(), num());
            let pixels = fields.next().unwrap();
            let last = (0..h)
                .rev()
                .find(|r| pixels[r * w..(r + 1) * w].iter().any(|&p| p < 200))
                .map_or(0, |r| r + 1);
            1.0 - last as f64 / h as f64
        })
        .collect()
}

/// The text of each page of `pdf` (poppler's `pdftotext`).
fn page_texts(pdf: &Path, pages: usize) -> Vec<String> {
    (1..=pages)
        .map(|p| {
            let out = Command::new("pdftotext")
                .args(["-f", &p.to_string(), "-l", &p.to_string()])
                .arg(pdf)
                .arg("-")
                .output()
                .expect("pdftotext runs");
            String::from_utf8_lossy(&out.stdout).into_owned()
        })
        .collect()
}

/// The most of a printed page (below its last line, the bottom margin included) left
/// empty when no study starts on the next: a figure with its caption (7 cm high by
/// default) that does not fit moves whole to the next page.
const MOST_EMPTY: f64 = 1.0 / 3.0;

#[test]
#[ignore = "needs Chromium and poppler-utils: cargo test --release --test browser -- --ignored"]
fn printed_pages_are_never_more_than_a_third_empty() {
    let (dir, html) = report();
    let profile = dir.path().join("profile");
    let text = std::fs::read_to_string(&html).unwrap();
    // The studies' titles (each starts a page); a report of one study has none.
    let studies: Vec<String> = text
        .split("<h2 ")
        .skip(1)
        .filter_map(|h| {
            let (attributes, rest) = h.split_once('>').unwrap();
            let title = rest.split("</h2>").next().unwrap();
            attributes
                .contains("class=\"study\"")
                .then(|| title.chars().take(30).collect())
        })
        .collect();
    for paper in ["A4", "Letter"] {
        // The same page with the paper size set, beside it (its figures are inline).
        let copy = html.with_file_name(format!("print-{paper}.html"));
        let sized = text.replacen("<style>", &format!("<style>@page {{ size: {paper}; }}"), 1);
        assert_ne!(sized, text, "the page has a style sheet");
        std::fs::write(&copy, sized).unwrap();
        let pdf = dir.path().join(format!("{paper}.pdf"));
        headless(
            &profile,
            &format!("file://{}", copy.display()),
            &[
                format!("--print-to-pdf={}", pdf.display()),
                "--no-pdf-header-footer".into(),
            ],
        );
        let empty = empty_below(&pdf);
        let texts = page_texts(&pdf, empty.len());
        assert!(empty.len() >= 2, "{paper}: {} pages", empty.len());
        let mut worst = 0f64;
        for (i, e) in empty.iter().enumerate().take(empty.len() - 1) {
            let next = texts[i + 1].trim_start();
            let before_study = studies
                .iter()
                .any(|s| next.replace('\n', " ").starts_with(s.as_str()));
            assert!(
                *e <= MOST_EMPTY || before_study,
                "{paper}: page {} is {:.0}% empty and no study starts after it",
                i + 1,
                100.0 * e
            );
            if !before_study {
                worst = worst.max(*e);
            }
        }
        println!(
            "{paper}: {} pages, the emptiest {:.0}% (but before a study or at the end)",
            empty.len(),
            100.0 * worst
        );
    }
}
