//! How output looks on the stream it goes to: the width tables fit in and
//! whether findings are coloured. The command line decides both once, from
//! its flags and the terminal (`cli::terminal`); renderers only obey.

use anstyle::{AnsiColor, Effects, Style};
use comfy_table::{ColumnConstraint, Table, Width};
use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

use crate::diag::Severity;

/// The look of one output stream. The default is a pipe's: whole lines,
/// no colour, so scripts and golden files see the same bytes everywhere.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Look {
    /// Tables (and the summary lines under them) fit in this many columns;
    /// `None` leaves every line whole.
    pub(crate) width: Option<u16>,
    /// Severities and codes carry ANSI colours.
    pub(crate) color: bool,
}

/// How a table column behaves when the table must fit a width.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Fit {
    /// Short values (codes, severities, states, line numbers): never wrapped.
    Keep,
    /// Text that wraps at spaces (a word longer than the column is broken),
    /// never narrower than the smaller of its widest line and `min` unless
    /// the width leaves no room for that.
    Wrap(u16),
    /// As `Wrap`, but a cell of more than `lines` lines is cut there,
    /// ending with `…` (a value thousands of characters long).
    Clip { min: u16, lines: usize },
}

/// A column of short values, never wrapped.
pub(crate) const KEEP: Fit = Fit::Keep;

/// The narrowest a wrapping column gets when there is room: a stack path
/// or a template name stays readable in two or three pieces.
pub(crate) const WRAP: Fit = Fit::Wrap(16);

/// Values: wrapped, and cut after 6 lines (JSON and YAML carry them whole).
pub(crate) const VALUE: Fit = Fit::Clip { min: 16, lines: 6 };

/// Short values that may still wrap when room is short (a parameter's
/// type: `comma_delimited_list`).
pub(crate) const NARROW: Fit = Fit::Wrap(8);

/// The narrowest a wrapping column gets, however narrow the width (unless
/// its header has a longer word).
const NARROWEST: u16 = 8;

/// A table with heatcap's look: one header cell per column. When the look
/// has a width, the table is fitted to it (see [`arrange`]); otherwise
/// every line is whole.
pub(crate) fn table(look: Look, columns: &[(&str, Fit)]) -> Grid {
    Grid {
        header: columns.iter().map(|(h, _)| (*h).to_owned()).collect(),
        rows: Vec::new(),
        width: look.width,
        columns: columns
            .iter()
            .map(|(h, f)| Column {
                fit: *f,
                header: widest_line(h),
                header_word: h.split_whitespace().map(widest_line).max().unwrap_or(0),
                cells: Vec::new(),
            })
            .collect(),
    }
}

/// A table being filled; `Display` prints it (comfy-table), fitted.
pub(crate) struct Grid {
    header: Vec<String>,
    rows: Vec<Vec<String>>,
    width: Option<u16>,
    columns: Vec<Column>,
}

/// What [`arrange`] knows of a column.
#[derive(Debug, Clone)]
struct Column {
    fit: Fit,
    /// The header's width.
    header: u16,
    /// The width of its longest word.
    header_word: u16,
    /// The widest line of each non-empty cell.
    cells: Vec<u16>,
}

impl Column {
    /// The width that shows every line whole.
    fn natural(&self) -> u16 {
        self.cells
            .iter()
            .copied()
            .max()
            .unwrap_or(0)
            .max(self.header)
    }

    /// The width nine cells in ten fit in (the rare long one wraps).
    fn typical(&self) -> u16 {
        let mut w = self.cells.clone();
        w.sort_unstable();
        let at = (w.len() * 9).div_ceil(10).saturating_sub(1);
        w.get(at).copied().unwrap_or(0).max(self.header)
    }
}

fn widest_line(text: &str) -> u16 {
    text.lines()
        .map(|l| u16::try_from(l.width()).unwrap_or(u16::MAX))
        .max()
        .unwrap_or(0)
}

impl Grid {
    /// Adds one row (a cell per column).
    pub(crate) fn add_row(&mut self, row: Vec<String>) {
        for (column, cell) in self.columns.iter_mut().zip(&row) {
            if !cell.is_empty() {
                column.cells.push(widest_line(cell));
            }
        }
        self.rows.push(row);
    }
}

impl std::fmt::Display for Grid {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut t = Table::new();
        t.load_style(comfy_table::presets::UTF8_FULL_CONDENSED);
        let Some(widths) = self.width.and_then(|w| arrange(w, &self.columns)) else {
            t.set_header(self.header.clone());
            t.add_rows(self.rows.iter().cloned());
            return write!(f, "{t}");
        };
        // Cells are broken here, where heatcap chooses (spaces, then `/`,
        // `::`, ...), so comfy-table has nothing left to break.
        let fitted = |row: &[String]| -> Vec<String> {
            row.iter()
                .zip(&widths)
                .zip(&self.columns)
                .map(|((cell, w), column)| {
                    let text = wrap_text(cell, usize::from(*w));
                    match column.fit {
                        Fit::Clip { lines, .. } => clip(&text, lines, usize::from(*w)),
                        _ => text,
                    }
                })
                .collect()
        };
        t.set_header(fitted(&self.header));
        t.add_rows(self.rows.iter().map(|r| fitted(r)));
        // comfy-table's absolute widths count the padding (1 + 1).
        t.set_constraints(
            widths
                .iter()
                .map(|w| ColumnConstraint::Absolute(Width::Fixed(w + 2))),
        );
        write!(f, "{t}")
    }
}

/// The content width of each column for a table `width` columns wide, or
/// `None` when every line fits whole. `Keep` columns keep their widest
/// line; the wrapping ones share the rest by levels, each at most its
/// widest line:
///
/// 0. the longest word of its header, and at least 8;
/// 1. its minimum (`Fit::Wrap(min)`);
/// 2. the width nine of its cells in ten fit in (its typical width);
/// 3. its widest line.
///
/// Every column gets the highest level that fits for all, and the room
/// left is shared: past level 2 a column at a time to those not yet whole
/// (so one huge cell does not take it all), below it in proportion to
/// what each lacks for the next level. When not even level 0 fits, the
/// table is wider than asked.
fn arrange(width: u16, columns: &[Column]) -> Option<Vec<u16>> {
    let n = u16::try_from(columns.len()).unwrap_or(u16::MAX);
    // Borders (n + 1) and a space either side of each cell.
    let budget = u32::from(width.saturating_sub(3 * n + 1));
    let natural: Vec<u16> = columns.iter().map(Column::natural).collect();
    if natural.iter().map(|w| u32::from(*w)).sum::<u32>() <= budget {
        return None;
    }
    let mut widths = natural.clone();
    let kept: u32 = columns
        .iter()
        .zip(&natural)
        .filter(|(c, _)| c.fit == Fit::Keep)
        .map(|(_, w)| u32::from(*w))
        .sum();
    let room = budget.saturating_sub(kept);
    let wrapping: Vec<usize> = (0..columns.len())
        .filter(|i| columns[*i].fit != Fit::Keep)
        .collect();
    // levels[l][k]: the width of the k-th wrapping column at level l.
    let mut levels: Vec<Vec<u32>> = vec![Vec::new(); 4];
    for &i in &wrapping {
        let c = &columns[i];
        let most = u32::from(natural[i]);
        let min = match c.fit {
            Fit::Wrap(min) | Fit::Clip { min, .. } => u32::from(min),
            Fit::Keep => most,
        };
        let l0 = most.min(u32::from(c.header_word.max(NARROWEST)));
        let l1 = most.min(min).max(l0);
        let l2 = u32::from(c.typical()).clamp(l1, most);
        for (l, w) in levels.iter_mut().zip([l0, l1, l2, most]) {
            l.push(w);
        }
    }
    let sum = |l: &[u32]| l.iter().sum::<u32>();
    let Some(level) = (0..3).rev().find(|l| sum(&levels[*l]) <= room) else {
        for (k, &i) in wrapping.iter().enumerate() {
            widths[i] = u16::try_from(levels[0][k]).unwrap_or(u16::MAX);
        }
        return Some(widths);
    };
    let mut got = levels[level].clone();
    let mut left = room - sum(&got);
    if level == 2 {
        // A column at a time, to those not yet whole.
        while left > 0 && got.iter().zip(&levels[3]).any(|(g, m)| g < m) {
            for (g, m) in got.iter_mut().zip(&levels[3]) {
                if left > 0 && *g < *m {
                    *g += 1;
                    left -= 1;
                }
            }
        }
    } else {
        let lack: Vec<u32> = levels[level + 1]
            .iter()
            .zip(&got)
            .map(|(next, g)| next - g)
            .collect();
        let total = sum(&lack).max(1);
        let shares: Vec<u32> = lack.iter().map(|l| l * left / total).collect();
        left -= sum(&shares);
        for ((g, share), l) in got.iter_mut().zip(shares).zip(&lack) {
            *g += share;
            // What rounding left over, a column at a time.
            if left > 0 && share < *l {
                *g += 1;
                left -= 1;
            }
        }
    }
    for (k, &i) in wrapping.iter().enumerate() {
        widths[i] = u16::try_from(got[k]).unwrap_or(u16::MAX);
    }
    Some(widths)
}

/// `text` broken at spaces into lines of at most `width` columns; whole
/// without a width. A word longer than that is broken as [`wrap_text`]
/// breaks one.
pub(crate) fn wrap(text: &str, width: Option<u16>) -> String {
    match width {
        Some(w) => wrap_text(text, usize::from(w)),
        None => text.to_owned(),
    }
}

/// Each line of `text` broken into lines of at most `width` columns: at
/// spaces, and a word longer than a line after a `/`, `::`, `,`, `-`, `_`
/// or `=`, or else before the capital of a CamelCase word (a path, a type
/// or a parameter name breaks between its parts), or anywhere when it has
/// none past a third of the line.
fn wrap_text(text: &str, width: usize) -> String {
    let width = width.max(1);
    let mut out: Vec<String> = Vec::new();
    for line in text.split('\n') {
        if line.width() <= width {
            out.push(line.to_owned());
            continue;
        }
        // The indentation stays on the first line.
        let body = line.trim_start_matches(' ');
        let mut current = line[..line.len() - body.len()].to_owned();
        let mut words = 0;
        for word in body.split(' ') {
            let used = current.width();
            if words == 0 && used + word.width() <= width {
                current.push_str(word);
                words += 1;
                continue;
            }
            if words > 0 && used + 1 + word.width() <= width {
                current.push(' ');
                current.push_str(word);
                continue;
            }
            if words > 0 {
                out.push(std::mem::take(&mut current));
            }
            // (An indentation with no room for its first word goes.)
            current.clear();
            words = 1;
            let mut rest = word;
            while rest.width() > width {
                let at = break_at(rest, width);
                out.push(rest[..at].to_owned());
                rest = &rest[at..];
            }
            current.push_str(rest);
        }
        if !current.is_empty() {
            out.push(current);
        }
    }
    out.join("\n")
}

/// The first `lines` lines of `text`, the last ending with `…` (within
/// `width`) when there were more.
fn clip(text: &str, lines: usize, width: usize) -> String {
    let mut kept: Vec<&str> = text.split('\n').collect();
    if kept.len() <= lines.max(1) {
        return text.to_owned();
    }
    kept.truncate(lines.max(1));
    let mut last = kept.pop().unwrap_or_default().to_owned();
    while !last.is_empty() && last.width() + 1 > width {
        last.pop();
    }
    last.push('…');
    kept.push(&last);
    kept.join("\n")
}

/// Where to break a word wider than `width`: after the last separator that
/// keeps the head within `width` (past a third of it), else before the
/// last CamelCase capital that does, else at `width`. Always at least one
/// character.
fn break_at(word: &str, width: usize) -> usize {
    let (mut used, mut hard, mut lower) = (0, 0, false);
    let (mut separator, mut camel) = (None, None);
    for (i, c) in word.char_indices() {
        let w = c.width().unwrap_or(0);
        if used + w > width {
            break;
        }
        if lower && c.is_uppercase() && used * 3 > width {
            camel = Some(i);
        }
        used += w;
        hard = i + c.len_utf8();
        // After both colons of `::`, never between them.
        if "/:,-_=".contains(c) && !word[hard..].starts_with(':') && used * 3 > width {
            separator = Some(hard);
        }
        lower = c.is_lowercase();
    }
    if hard == 0 {
        // A character wider than the line: it goes alone.
        return word.chars().next().map_or(word.len(), char::len_utf8);
    }
    separator.or(camel).unwrap_or(hard)
}

/// The colour of a severity: errors red, warnings yellow, notes cyan.
pub(crate) fn severity_style(severity: Severity) -> Style {
    let color = match severity {
        Severity::Error => AnsiColor::Red,
        Severity::Warning => AnsiColor::Yellow,
        Severity::Info => AnsiColor::Cyan,
    };
    Style::new().fg_color(Some(color.into()))
}

/// The style of a code and of the severity word: bold, in the severity's colour.
pub(crate) fn code_style(severity: Severity) -> Style {
    severity_style(severity).effects(Effects::BOLD)
}

/// Bold (file names at the start of a finding).
pub(crate) const BOLD: Style = Style::new().effects(Effects::BOLD);

/// `text` in `style` when the look is coloured, else as it is.
pub(crate) fn paint(look: Look, style: Style, text: &str) -> String {
    if look.color {
        format!("{style}{text}{style:#}")
    } else {
        text.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const COLS: &[(&str, Fit)] = &[("Code", KEEP), ("Message", WRAP)];

    fn rendered(look: Look, rows: &[[&str; 2]]) -> String {
        let mut t = table(look, COLS);
        for r in rows {
            t.add_row(r.iter().map(|c| (*c).to_owned()).collect());
        }
        t.to_string()
    }

    fn widest(s: &str) -> usize {
        s.lines().map(UnicodeWidthStr::width).max().unwrap_or(0)
    }

    fn fitted(width: u16) -> Look {
        Look {
            width: Some(width),
            color: false,
        }
    }

    /// The message column's text, its lines joined.
    fn message(table: &str) -> String {
        table
            .lines()
            .skip(3)
            .filter_map(|l| l.split('┆').nth(1))
            .map(|c| c.trim_end_matches('│').trim())
            .collect()
    }

    #[test]
    fn without_a_width_lines_stay_whole() {
        let long = "word ".repeat(40);
        let s = rendered(Look::default(), &[["E1000", long.trim()]]);
        assert_eq!(s.lines().count(), 5, "{s}");
        assert!(widest(&s) > 200);
    }

    #[test]
    fn with_a_width_tables_wrap_to_it() {
        let long = "word ".repeat(40);
        let s = rendered(fitted(40), &[["E1000", long.trim()]]);
        assert!(widest(&s) <= 40, "{s}");
        // The code column is kept whole.
        assert!(s.contains("E1000"), "{s}");
        assert_eq!(message(&s).replace(' ', ""), "word".repeat(40));
    }

    #[test]
    fn a_table_that_fits_is_left_alone() {
        let look = fitted(80);
        let s = rendered(look, &[["E1000", "short"]]);
        assert_eq!(s, rendered(Look::default(), &[["E1000", "short"]]));
    }

    #[test]
    fn long_paths_break_after_a_slash() {
        let path = "a/very/long/path/to/some/template/that/does/not/fit.yaml";
        let s = rendered(fitted(40), &[["E1000", path]]);
        assert!(widest(&s) <= 40, "{s}");
        assert_eq!(message(&s), path);
        for line in s.lines().skip(3) {
            if let Some(cell) = line.split('┆').nth(1) {
                let cell = cell.trim_end_matches('│').trim();
                assert!(cell.ends_with('/') || cell == "fit.yaml", "{s}");
            }
        }
    }

    #[test]
    fn a_wrapping_column_is_never_one_letter_wide() {
        let s = rendered(fitted(20), &[["E1000E1000E1000", "some words here"]]);
        // The message column keeps its narrowest (8) though the table is
        // then wider than asked.
        let cell = s.lines().nth(3).unwrap().split('┆').nth(1).unwrap();
        assert!(cell.trim_end_matches('│').width() >= 8 + 2, "{s}");
    }

    #[test]
    fn columns_share_the_room_by_what_their_cells_need() {
        let column = |fit, header: &str, cells: &[u16]| Column {
            fit,
            header: widest_line(header),
            header_word: widest_line(header),
            cells: cells.to_vec(),
        };
        // 3 columns: 10 of borders and padding.
        let cols = [
            column(KEEP, "Code", &[5, 5]),
            column(WRAP, "Name", &[30; 10]),
            column(WRAP, "Value", &[10, 10, 10, 10, 10, 10, 10, 10, 10, 3000]),
        ];
        // Room for everything's typical width: the extra goes to the one
        // column not yet whole.
        assert_eq!(arrange(80, &cols), Some(vec![5, 30, 35]));
        // Not enough: the minimums (16, 16), then what is left by need.
        assert_eq!(arrange(50, &cols), Some(vec![5, 19, 16]));
        // Not even the minimums: the headers' words (and 8), then what is
        // left by what each lacks for its minimum.
        assert_eq!(arrange(36, &cols), Some(vec![5, 11, 10]));
        // Not even that: the table is wider than asked.
        assert_eq!(arrange(20, &cols), Some(vec![5, 8, 8]));
        // Everything fits: nothing to arrange.
        assert_eq!(arrange(4000, &cols), None);
    }

    #[test]
    fn wrap_breaks_at_spaces_then_separators() {
        assert_eq!(wrap("aa bb cc dd", Some(5)), "aa bb\ncc dd");
        assert_eq!(wrap("aa bbbbbbb cc", Some(5)), "aa\nbbbbb\nbb cc");
        assert_eq!(wrap("aa bb cc dd", None), "aa bb cc dd");
        assert_eq!(
            wrap_text("OS::TripleO::Services::Keystone", 15),
            "OS::TripleO::\nServices::\nKeystone"
        );
        assert_eq!(
            wrap_text("root/Compute/0/NetworkConfig", 16),
            "root/Compute/0/\nNetworkConfig"
        );
        // Wide characters count two columns; a separator too early is not used.
        assert_eq!(
            wrap_text("CeilometerMeteringSecret", 14),
            "Ceilometer\nMeteringSecret"
        );
        assert_eq!(
            wrap_text("OS::TripleO::Services::Keystone", 22),
            "OS::TripleO::\nServices::Keystone"
        );
        assert_eq!(
            wrap_text("OS::TripleO::Network", 11),
            "OS::\nTripleO::\nNetwork"
        );
        assert_eq!(wrap_text("/日本語テキスト", 6), "/日本\n語テキ\nスト");
        assert_eq!(wrap_text("一", 1), "一");
        // Indentation stays.
        assert_eq!(
            wrap_text("    key: a long value", 12),
            "    key: a\nlong value"
        );
        // Lines already broken stay so.
        assert_eq!(wrap_text("a\nb", 5), "a\nb");
    }

    #[test]
    fn clipped_cells_end_with_an_ellipsis() {
        assert_eq!(clip("a\nb\nc", 2, 5), "a\nb…");
        assert_eq!(clip("aaaaa\nbbbbb\nc", 2, 5), "aaaaa\nbbbb…");
        assert_eq!(clip("a\nb", 2, 5), "a\nb");
        let cols: &[(&str, Fit)] = &[("Value", Fit::Clip { min: 8, lines: 2 })];
        let mut t = table(fitted(12), cols);
        t.add_row(vec!["one two three four five six".to_owned()]);
        let s = t.to_string();
        assert!(s.contains("one two"), "{s}");
        assert!(s.contains("three…"), "{s}");
        assert!(!s.contains("five"), "{s}");
    }

    #[test]
    fn paint_only_when_coloured() {
        let plain = Look::default();
        let coloured = Look {
            width: None,
            color: true,
        };
        let style = code_style(Severity::Error);
        assert_eq!(paint(plain, style, "E1000"), "E1000");
        assert_eq!(
            paint(coloured, style, "E1000"),
            "\x1b[1m\x1b[31mE1000\x1b[0m"
        );
    }
}
