// Package text holds the text rules that Oráculo's stages share, so that
// each exists once: folding (case and accents), words, sentences, and the
// Markdown line syntax the stages read (ATX headings, list and quote
// markers, task boxes, code fences), and the rendering of a note's
// Obsidian markup as its reader sees it ([Render]).
//
// Everything here is pure: strings in, strings or offsets out, no I/O, no
// state. No function panics, whatever its input, including invalid UTF-8.
package text
