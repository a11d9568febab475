//! Charts as inline SVG, drawn by hand: horizontal stacked bars, a
//! histogram, diverging bars and lines over snapshots. Every mark has a
//! `<title>` tooltip.

use std::fmt::Write as _;

use super::escape;

/// One segment of a stacked bar.
pub(crate) struct Segment {
    /// Its share of the whole, 0 to 1.
    pub share: f64,
    /// Its fill colour.
    pub color: &'static str,
    /// Its tooltip.
    pub title: String,
}

/// One labelled bar.
pub(crate) struct Bar {
    pub label: String,
    pub segments: Vec<Segment>,
    /// Text after the bar.
    pub note: String,
}

const FONT: &str = "font-family=\"inherit\" font-size=\"12\"";

/// The width a text takes at [`FONT`]'s 12 px, over-estimated (7 px a
/// character: wider than the average of the sans-serif fonts the page
/// names) so that the room made for it always holds it.
pub(crate) fn text_width(text: &str) -> u32 {
    7 * text.chars().count() as u32
}

/// Horizontal stacked bars on a 0–`scale` axis (a share), one per row;
/// the labels get at least `label_width` and as much as the longest needs,
/// and each note is written after the plot, in a column as wide as the
/// longest note, so no text is cut.
pub(crate) fn stacked_bars(bars: &[Bar], scale: f64, label_width: u32) -> String {
    let (row, bar_height, plot) = (24u32, 16u32, 600u32);
    let label_width = bars
        .iter()
        .map(|b| text_width(&b.label))
        .fold(label_width, u32::max);
    let left = label_width + 8;
    let top = 22u32;
    let notes = bars.iter().map(|b| text_width(&b.note)).max().unwrap_or(0);
    // The last tick's label is centred on the plot's end.
    let width = left + plot + (notes + 12).max(24);
    let height = top + row * bars.len() as u32 + 6;
    let scale = if scale > 0.0 { scale } else { 1.0 };
    let mut svg = String::new();
    let _ = write!(
        svg,
        "<svg class=\"chart\" viewBox=\"0 0 {width} {height}\" width=\"{width}\" height=\"{height}\" role=\"img\" xmlns=\"http://www.w3.org/2000/svg\">"
    );
    // Grid lines at a fifth of the scale each.
    for i in 0..=4 {
        let x = left as f64 + plot as f64 * f64::from(i) / 4.0;
        let value = scale * f64::from(i) / 4.0;
        let _ = write!(
            svg,
            "<line x1=\"{x:.1}\" y1=\"{}\" x2=\"{x:.1}\" y2=\"{}\" class=\"grid\"/><text x=\"{x:.1}\" y=\"12\" text-anchor=\"middle\" class=\"axis\" {FONT}>{}</text>",
            top - 4,
            height - 4,
            axis_label(value)
        );
    }
    for (i, bar) in bars.iter().enumerate() {
        let y = top + row * i as u32;
        let _ = write!(
            svg,
            "<text x=\"{}\" y=\"{}\" text-anchor=\"end\" class=\"label\" {FONT}>{}</text>",
            label_width,
            y + bar_height - 3,
            escape(&bar.label)
        );
        let mut x = left as f64;
        for segment in &bar.segments {
            let w = plot as f64 * (segment.share / scale).clamp(0.0, 1.0);
            if w > 0.0 {
                let _ = write!(
                    svg,
                    "<rect x=\"{x:.2}\" y=\"{y}\" width=\"{w:.2}\" height=\"{bar_height}\" fill=\"{}\"><title>{}</title></rect>",
                    segment.color,
                    escape(&segment.title)
                );
            }
            x += w;
        }
        let _ = write!(
            svg,
            "<text x=\"{}\" y=\"{}\" class=\"value\" {FONT}>{}</text>",
            left + plot + 8,
            y + bar_height - 3,
            escape(&bar.note)
        );
    }
    svg.push_str("</svg>");
    svg
}

/// Vertical bars of counts, labelled underneath.
pub(crate) fn histogram(buckets: &[(String, u64, &'static str)]) -> String {
    let (plot_height, gap) = (160u32, 14u32);
    let column = buckets
        .iter()
        .map(|(label, count, _)| text_width(label).max(text_width(&thousands(*count))))
        .fold(64, u32::max);
    let top = 20u32;
    let width = (column + gap) * buckets.len() as u32 + gap;
    let height = top + plot_height + 40;
    let max = buckets.iter().map(|b| b.1).max().unwrap_or(0).max(1);
    let mut svg = String::new();
    let _ = write!(
        svg,
        "<svg class=\"chart\" viewBox=\"0 0 {width} {height}\" width=\"{width}\" height=\"{height}\" role=\"img\" xmlns=\"http://www.w3.org/2000/svg\">"
    );
    let base = top + plot_height;
    let _ = write!(
        svg,
        "<line x1=\"0\" y1=\"{base}\" x2=\"{width}\" y2=\"{base}\" class=\"grid\"/>"
    );
    for (i, (label, count, color)) in buckets.iter().enumerate() {
        let x = gap + (column + gap) * i as u32;
        let h = (plot_height as f64 * *count as f64 / max as f64).round() as u32;
        let _ = write!(
            svg,
            "<rect x=\"{x}\" y=\"{}\" width=\"{column}\" height=\"{h}\" fill=\"{color}\" rx=\"2\"><title>{}: {count}</title></rect>\
             <text x=\"{}\" y=\"{}\" text-anchor=\"middle\" class=\"value\" {FONT}>{}</text>\
             <text x=\"{}\" y=\"{}\" text-anchor=\"middle\" class=\"label\" {FONT}>{}</text>",
            base - h,
            escape(label),
            x + column / 2,
            base - h - 5,
            thousands(*count),
            x + column / 2,
            base + 16,
            escape(label)
        );
    }
    svg.push_str("</svg>");
    svg
}

/// Bars left (stopped) and right (started) of a centre line, one row per
/// label.
pub(crate) fn diverging(rows: &[(String, u64, u64)], label_width: u32) -> String {
    let (row, bar_height, half) = (24u32, 16u32, 240u32);
    let top = 22u32;
    let notes = rows
        .iter()
        .map(|(_, started, stopped)| text_width(&format!("+{started} / −{stopped}")))
        .max()
        .unwrap_or(0);
    let label_width = rows
        .iter()
        .map(|r| text_width(&r.0))
        .fold(label_width, u32::max);
    let left = label_width + 8;
    let centre = left + half;
    let width = left + 2 * half + notes + 12;
    let height = top + row * rows.len() as u32 + 6;
    let max = rows.iter().map(|r| r.1.max(r.2)).max().unwrap_or(0).max(1) as f64;
    let mut svg = String::new();
    let _ = write!(
        svg,
        "<svg class=\"chart\" viewBox=\"0 0 {width} {height}\" width=\"{width}\" height=\"{height}\" role=\"img\" xmlns=\"http://www.w3.org/2000/svg\">\
         <text x=\"{}\" y=\"12\" text-anchor=\"end\" class=\"axis\" {FONT}>← stopped blocking</text>\
         <text x=\"{}\" y=\"12\" class=\"axis\" {FONT}>started blocking →</text>\
         <line x1=\"{centre}\" y1=\"{}\" x2=\"{centre}\" y2=\"{}\" class=\"axisline\"/>",
        centre - 6,
        centre + 6,
        top - 4,
        height - 2
    );
    for (i, (label, started, stopped)) in rows.iter().enumerate() {
        let y = top + row * i as u32;
        let ws = half as f64 * *stopped as f64 / max;
        let wg = half as f64 * *started as f64 / max;
        let _ = write!(
            svg,
            "<text x=\"{label_width}\" y=\"{}\" text-anchor=\"end\" class=\"label\" {FONT}>{}</text>\
             <rect x=\"{:.2}\" y=\"{y}\" width=\"{ws:.2}\" height=\"{bar_height}\" fill=\"#2f9e6e\"><title>{}: {stopped} stopped</title></rect>\
             <rect x=\"{centre}\" y=\"{y}\" width=\"{wg:.2}\" height=\"{bar_height}\" fill=\"#c8412d\"><title>{}: {started} started</title></rect>\
             <text x=\"{:.1}\" y=\"{}\" class=\"value\" {FONT}>+{started} / −{stopped}</text>",
            y + bar_height - 3,
            escape(label),
            centre as f64 - ws,
            escape(label),
            escape(label),
            centre as f64 + wg + 6.0,
            y + bar_height - 3,
        );
    }
    svg.push_str("</svg>");
    svg
}

/// One line of a line chart: a label, its colour, a share per snapshot.
pub(crate) struct Line {
    pub label: String,
    pub color: &'static str,
    pub shares: Vec<f64>,
}

/// Lines over `labels` (the snapshots), on a 0–`scale` share axis, with a
/// legend on the right.
pub(crate) fn lines(labels: &[String], lines: &[Line], scale: f64) -> String {
    let (top, plot_w, plot_h) = (16u32, 640u32, 240u32);
    // The first snapshot's label is centred on the axis: room for its half.
    let left = labels
        .first()
        .map_or(56, |l| (text_width(l) / 2 + 4).max(56));
    let legend = lines
        .iter()
        .map(|l| text_width(&l.label) + 40)
        .fold(200, u32::max);
    let width = left + plot_w + legend;
    let height = top + plot_h + 48;
    let scale = if scale > 0.0 { scale } else { 1.0 };
    let x = |i: usize| {
        if labels.len() <= 1 {
            f64::from(left) + f64::from(plot_w) / 2.0
        } else {
            f64::from(left) + f64::from(plot_w) * i as f64 / (labels.len() - 1) as f64
        }
    };
    let y =
        |share: f64| f64::from(top) + f64::from(plot_h) * (1.0 - (share / scale).clamp(0.0, 1.0));
    let mut svg = String::new();
    let _ = write!(
        svg,
        "<svg class=\"chart\" viewBox=\"0 0 {width} {height}\" width=\"{width}\" height=\"{height}\" role=\"img\" xmlns=\"http://www.w3.org/2000/svg\">"
    );
    for i in 0..=4 {
        let value = scale * f64::from(i) / 4.0;
        let at = y(value);
        let _ = write!(
            svg,
            "<line x1=\"{left}\" y1=\"{at:.1}\" x2=\"{}\" y2=\"{at:.1}\" class=\"grid\"/><text x=\"{}\" y=\"{:.1}\" text-anchor=\"end\" class=\"axis\" {FONT}>{}</text>",
            left + plot_w,
            left - 6,
            at + 4.0,
            axis_label(value)
        );
    }
    for (i, label) in labels.iter().enumerate() {
        let _ = write!(
            svg,
            "<text x=\"{:.1}\" y=\"{}\" text-anchor=\"middle\" class=\"label\" {FONT}>{}</text>",
            x(i),
            top + plot_h + 18,
            escape(label)
        );
    }
    for (n, line) in lines.iter().enumerate() {
        let points: Vec<String> = line
            .shares
            .iter()
            .enumerate()
            .map(|(i, &s)| format!("{:.1},{:.1}", x(i), y(s)))
            .collect();
        let _ = write!(
            svg,
            "<polyline points=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"2\"><title>{}</title></polyline>",
            points.join(" "),
            line.color,
            escape(&line.label)
        );
        for (i, &s) in line.shares.iter().enumerate() {
            let _ = write!(
                svg,
                "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"3\" fill=\"{}\"><title>{}, {}: {}</title></circle>",
                x(i),
                y(s),
                line.color,
                escape(&line.label),
                escape(&labels[i]),
                percent(s)
            );
        }
        let ly = top + 14 * n as u32;
        let _ = write!(
            svg,
            "<rect x=\"{}\" y=\"{}\" width=\"10\" height=\"10\" fill=\"{}\"/><text x=\"{}\" y=\"{}\" class=\"label\" {FONT}>{}</text>",
            left + plot_w + 16,
            ly,
            line.color,
            left + plot_w + 32,
            ly + 9,
            escape(&line.label)
        );
    }
    svg.push_str("</svg>");
    svg
}

/// `0.1234` → `12.3 %`.
pub(crate) fn percent(share: f64) -> String {
    if share == 0.0 {
        "0 %".to_owned()
    } else if share < 0.001 {
        "<0.1 %".to_owned()
    } else {
        format!("{:.1} %", share * 100.0)
    }
}

/// An axis tick: `0.0025` → `0.25 %`, `0.1` → `10 %`.
fn axis_label(share: f64) -> String {
    let text = format!("{:.2}", share * 100.0);
    format!("{} %", text.trim_end_matches('0').trim_end_matches('.'))
}

/// `1234567` → `1,234,567`.
pub(crate) fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_read_well() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(1234), "1,234");
        assert_eq!(thousands(1_234_567), "1,234,567");
        assert_eq!(percent(0.1234), "12.3 %");
        assert_eq!(percent(0.0), "0 %");
        assert_eq!(percent(0.0004), "<0.1 %");
        assert_eq!(axis_label(0.0025), "0.25 %");
        assert_eq!(axis_label(0.1), "10 %");
        assert_eq!(axis_label(0.0), "0 %");
    }

    #[test]
    fn charts_are_svg_with_escaped_text() {
        let svg = stacked_bars(
            &[Bar {
                label: "<b>".into(),
                segments: vec![Segment {
                    share: 0.5,
                    color: "#000",
                    title: "half".into(),
                }],
                note: "50 %".into(),
            }],
            1.0,
            120,
        );
        assert!(svg.starts_with("<svg") && svg.ends_with("</svg>"));
        assert!(svg.contains("&lt;b&gt;") && !svg.contains("<b>"));
        assert!(svg.contains("width=\"300.00\""));
        // A long label and note get room: the labels' column and the width.
        let long = stacked_bars(
            &[Bar {
                label: "x".repeat(40),
                segments: vec![],
                note: "n".repeat(50),
            }],
            1.0,
            120,
        );
        let (label, note) = (text_width(&"x".repeat(40)), text_width(&"n".repeat(50)));
        assert!(long.contains(&format!("viewBox=\"0 0 {} ", label + 8 + 600 + note + 12)));
        let empty = histogram(&[]);
        assert!(empty.contains("</svg>"));
        let div = diverging(&[("GPTBot".into(), 3, 1)], 100);
        assert!(div.contains("+3 / −1"));
        let chart = lines(
            &["then".into(), "now".into()],
            &[Line {
                label: "<GPTBot>".into(),
                color: "#000",
                shares: vec![0.1, 0.2],
            }],
            0.4,
        );
        assert_eq!(chart.matches("<circle").count(), 2);
        assert!(chart.contains("&lt;GPTBot&gt;, now: 20.0 %"));
    }
}
