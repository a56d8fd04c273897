//! An audit's 5 × 5 grid as text and as an SVG document.

use super::stats::{AuditReport, ChiSquare, N, tile_ratios};

fn describe(test: Option<ChiSquare>) -> String {
    test.map_or_else(
        || "no rounds".to_owned(),
        |t| format!("chi-square {:.2} (df {}), p = {:.4}", t.statistic, t.degrees_of_freedom, t.p_value),
    )
}

/// The 5 × 5 grid as text: each tile's mine frequency against the expected one, in percent
/// (`+1.2` = 1.2 % more often than uniform), with a shade for the z-score (` ` |z| < 1, `░` < 2, `▒` < 3,
/// `▓` < 4, `█` ≥ 4).
pub fn heatmap_text(report: &AuditReport) -> String {
    let Some(ratios) = tile_ratios(report) else { return "no rounds to show\n".to_owned() };
    let mut out = String::from("mine frequency per tile, % above (+) or below (-) uniform; shade = |z|\n");
    for row in 0..5 {
        out.push_str("  ");
        for col in 0..5 {
            let (ratio, z) = ratios[row * 5 + col];
            let shade = match z.abs() {
                z if z < 1.0 => ' ',
                z if z < 2.0 => '░',
                z if z < 3.0 => '▒',
                z if z < 4.0 => '▓',
                _ => '█',
            };
            out.push_str(&format!(" {shade}{:>+6.2}{shade}", (ratio - 1.0) * 100.0));
        }
        out.push_str(&format!("   tiles {:>2}-{}\n", row * 5 + 1, row * 5 + 5));
    }
    out
}

/// The heatmap as a standalone SVG document: one square per tile, red above uniform and blue below,
/// full colour at |z| = 4, labelled with the tile number and its deviation in percent.
pub fn heatmap_svg(report: &AuditReport, title: &str) -> String {
    const CELL: usize = 96;
    const TOP: usize = 72;
    // Wide enough for the title at about 9 px per character.
    let width = (CELL * 5 + 40).max(40 + title.chars().count() * 9);
    let height = TOP + CELL * 5 + 96;
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\" \
         font-family=\"sans-serif\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n\
         <text x=\"20\" y=\"28\" font-size=\"16\">{}</text>\n<text x=\"20\" y=\"52\" font-size=\"13\">{}</text>\n",
        escape(title),
        escape(&match &report.by_mines[..] {
            [one] => format!("{} rounds with {} mines: {}", one.rounds, one.mines, describe(one.chi_square)),
            all => format!(
                "{} rounds · all mine counts: {}",
                all.iter().map(|m| m.rounds).sum::<u64>(),
                match (report.combined, report.holm_p_value) {
                    (Some(t), _) => describe(Some(t)),
                    (None, Some(p)) => format!("smallest Holm-adjusted p = {p:.4}"),
                    (None, None) => describe(None),
                }
            ),
        }),
    );
    let ratios = tile_ratios(report).unwrap_or([(1.0, 0.0); N]);
    for (i, (ratio, z)) in ratios.iter().enumerate() {
        let (x, y) = (20 + (i % 5) * CELL, TOP + (i / 5) * CELL);
        let strength = (z.abs() / 4.0).min(1.0);
        let fade = (255.0 * (1.0 - strength)).round() as u8;
        let fill = if *z >= 0.0 { format!("rgb(255,{fade},{fade})") } else { format!("rgb({fade},{fade},255)") };
        svg.push_str(&format!(
            "<rect x=\"{x}\" y=\"{y}\" width=\"{CELL}\" height=\"{CELL}\" fill=\"{fill}\" stroke=\"#444\"/>\n\
             <text x=\"{}\" y=\"{}\" font-size=\"12\" fill=\"#333\">{}</text>\n\
             <text x=\"{}\" y=\"{}\" font-size=\"16\" text-anchor=\"middle\">{:+.2}%</text>\n\
             <text x=\"{}\" y=\"{}\" font-size=\"11\" text-anchor=\"middle\" fill=\"#333\">z {:+.2}</text>\n",
            x + 6,
            y + 16,
            i + 1,
            x + CELL / 2,
            y + CELL / 2 + 6,
            (ratio - 1.0) * 100.0,
            x + CELL / 2,
            y + CELL / 2 + 26,
            z
        ));
    }
    let legend_y = TOP + CELL * 5 + 28;
    if report.first_draw.is_some() {
        let first = escape(&describe(report.first_draw));
        svg.push_str(&format!("<text x=\"20\" y=\"{legend_y}\" font-size=\"13\">first draw: {first}</text>\n"));
    }
    svg.push_str(&format!(
        "<text x=\"20\" y=\"{}\" font-size=\"12\" fill=\"#333\">red: more mines than uniform, blue: fewer; full colour at |z| = 4</text>\n</svg>\n",
        legend_y + 24
    ));
    svg
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}
