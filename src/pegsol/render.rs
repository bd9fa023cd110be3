//! Text pictures of boards, and the replay of a solution (`--play-solution`): redrawn in
//! place on a terminal with a pause between jumps, printed one after another otherwise.
//!
//! Also the search clock: like the seed (which used C's `clock()`), searches are timed in
//! CPU time of the running thread on Linux, so that speeds stay comparable when other
//! programs share the machine; elsewhere they fall back to wall time.

use std::io::{self, Write};
use std::time::{Duration, Instant};

use super::board::{Board, Jump, Shape, cell};

/// The board's bounding box as text: `o` peg, `.` empty hole, blank for no hole; cells
/// three characters wide. `cursor` marks one cell with `[ ]`, or `{ }` when selected.
pub fn board_text(shape: &Shape, b: Board, cursor: Option<(u32, bool)>) -> String {
    let (x0, y0, x1, y1) = shape.bbox;
    let mut s = String::new();
    for y in y0..=y1 {
        let mut line = String::new();
        for x in x0..=x1 {
            let c = cell(x, y);
            let ch = if !shape.is_hole(c) {
                ' '
            } else if b.has_peg(c) {
                'o'
            } else {
                '.'
            };
            let (l, r) = match cursor {
                Some((at, false)) if at == c => ('[', ']'),
                Some((at, true)) if at == c => ('{', '}'),
                _ => (' ', ' '),
            };
            line.push(l);
            line.push(ch);
            line.push(r);
        }
        s.push_str(line.trim_end());
        s.push('\n');
    }
    s
}

/// Replays `jumps` from `start` on `out`. On a terminal each board replaces the last
/// and the replay pauses `delay` after each jump; otherwise the boards are printed one
/// after another, without pausing.
pub fn replay(
    shape: &Shape,
    start: Board,
    jumps: &[Jump],
    delay: Duration,
    out: &mut impl Write,
    terminal: bool,
) -> io::Result<()> {
    use crossterm::{cursor::MoveTo, queue, terminal::Clear, terminal::ClearType};
    let mut b = start;
    let total = jumps.len();
    for k in 0..=total {
        if k > 0 {
            b = b.apply(jumps[k - 1]);
        }
        if terminal {
            queue!(out, Clear(ClearType::All), MoveTo(0, 0))?;
        }
        let what = if k == 0 {
            "Start".to_string()
        } else {
            format!("Jump {k}/{total}: {}", jumps[k - 1])
        };
        write!(
            out,
            "{what} ({})\n{}\n",
            pegs_text(b.pegs()),
            board_text(shape, b, None)
        )?;
        out.flush()?;
        if terminal && k < total && !delay.is_zero() {
            std::thread::sleep(delay);
        }
    }
    Ok(())
}

/// "1 peg", "2 pegs".
pub fn pegs_text(n: u32) -> String {
    if n == 1 {
        "1 peg".to_string()
    } else {
        format!("{n} pegs")
    }
}

/// A clock for timing searches (see the module docs).
pub struct SearchClock {
    cpu0: Option<Duration>,
    wall0: Instant,
}

impl SearchClock {
    pub fn start() -> SearchClock {
        SearchClock {
            cpu0: thread_cpu(),
            wall0: Instant::now(),
        }
    }

    /// Time since `start`.
    pub fn elapsed(&self) -> Duration {
        match (self.cpu0, thread_cpu()) {
            (Some(a), Some(b)) if b >= a => b - a,
            _ => self.wall0.elapsed(),
        }
    }
}

/// CPU time of the calling thread (`clock_gettime(CLOCK_THREAD_CPUTIME_ID)`).
#[cfg(all(target_os = "linux", target_pointer_width = "64"))]
fn thread_cpu() -> Option<Duration> {
    #[repr(C)]
    struct Timespec {
        sec: i64,
        nsec: i64,
    }
    unsafe extern "C" {
        fn clock_gettime(clock: i32, tp: *mut Timespec) -> i32;
    }
    const CLOCK_THREAD_CPUTIME_ID: i32 = 3;
    let mut t = Timespec { sec: 0, nsec: 0 };
    // SAFETY: `t` is a valid, writable timespec (two 64-bit fields on 64-bit Linux) and
    // the clock id is a constant the kernel defines.
    let rc = unsafe { clock_gettime(CLOCK_THREAD_CPUTIME_ID, &mut t) };
    (rc == 0 && t.sec >= 0 && t.nsec >= 0).then(|| Duration::new(t.sec as u64, t.nsec as u32))
}

#[cfg(not(all(target_os = "linux", target_pointer_width = "64")))]
fn thread_cpu() -> Option<Duration> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pegsol::board::Dir;
    use crate::pegsol::levels::level;

    #[test]
    fn draws_the_bounding_box_with_cursor_marks() {
        let p = level(1).unwrap();
        assert_eq!(
            board_text(&p.shape, p.start, None),
            " o  o  .\n    o\n    o\n"
        );
        let c = cell(4, 3);
        assert_eq!(
            board_text(&p.shape, p.start, Some((c, false)))
                .lines()
                .next(),
            Some(" o [o] .")
        );
        assert_eq!(
            board_text(&p.shape, p.start, Some((c, true)))
                .lines()
                .next(),
            Some(" o {o} .")
        );
    }

    #[test]
    fn replay_prints_every_board_when_not_a_terminal() {
        let p = level(0).unwrap();
        let jumps = [Jump::new(3, 3, Dir::Right), Jump::new(6, 3, Dir::Left)];
        let mut out = Vec::new();
        replay(
            &p.shape,
            p.start,
            &jumps,
            Duration::from_secs(5),
            &mut out,
            false,
        )
        .unwrap();
        let text = String::from_utf8(out).unwrap();
        assert_eq!(
            text,
            "Start (3 pegs)\n o  o  .  o\n\nJump 1/2: (3,3) right to (5,3) (2 pegs)\n .  .  o  o\n\nJump 2/2: (6,3) left to (4,3) (1 peg)\n .  o  .  .\n\n"
        );
    }

    #[test]
    fn the_clock_moves_forward() {
        assert!(cfg!(not(target_os = "linux")) || thread_cpu().is_some());
        let c = SearchClock::start();
        let mut x = 0u64;
        for i in 0..2_000_000u64 {
            x = x.wrapping_add(crate::util::rng::splitmix64(i));
        }
        assert!(x != 1);
        assert!(c.elapsed() > Duration::ZERO);
    }
}
