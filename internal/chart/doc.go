// Package chart draws the toolkit's figures with gonum/plot: one or more
// panels stacked vertically, each with lines (optionally as steps or with
// point markers), marked points, or grouped bars, written as SVG, PNG or
// PDF at a size given in pixels.
//
// It exists so that every command draws with the same conventions, which
// gonum/plot's defaults do not give by themselves:
//
//   - Fonts travel with the file. SVG embeds the Liberation fonts gonum/plot
//     draws with (vgsvg.EmbedFonts), and names generic fallbacks after them,
//     so that a renderer without Liberation neither substitutes a font of
//     other metrics (cutting the title) nor drops the text; PDF embeds them
//     too; PNG is rasterised here.
//   - Titles fit: a title wider than the figure is wrapped at spaces, using
//     the font's own advance widths, and shrunk only when one word is wider
//     than the figure.
//   - Ticks are readable: a log axis that spans less than three decades is
//     labelled at 1, 2 and 5 times powers of ten (gonum's LogTicks labels
//     only powers of ten, so a curve from 10 minutes to 8 hours had a single
//     labelled tick), and every tick label, log or linear, is written by one
//     number format (Label: three significant digits, no trailing zeros), so
//     that one figure never shows "0/5/10" beside "0.00/25.00/50.00".
//   - The data area spans the figure: gonum/plot reserves room for a
//     centred X label's glyph box at the data's arithmetic midpoint, which
//     on a log axis lies near its right end (a curve lost 15 % of the
//     width); the label of a log X axis is drawn by Figure instead.
//   - Sizes are in pixels (Size, ParseSize): a PNG is exactly W×H pixels;
//     SVG and PDF take the same size at 96 pixels per inch, the CSS
//     reference pixel.
package chart
