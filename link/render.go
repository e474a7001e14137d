package link

import (
	"context"

	textpkg "github.com/oraculo/oraculo/text"
)

// Render is a note's Markdown as reading text, the same on every surface
// that shows a note's words (see [textpkg.Render]): the passage pages,
// the MCP tools, the terminal.
func Render(md string) string { return textpkg.Render(md) }

// Resolver finds the one note a wikilink's target names among those the
// reader may see ([oraculo.Engine.ResolveNote]): its file, or ok false.
type Resolver func(ctx context.Context, target string) (file string, ok bool, err error)

// RenderResolved is [Render], with each wikilink (or embed) whose target
// resolve finds written as mark(shown, file); any other wikilink is its
// shown text alone, as a note that does not exist, and so is every one
// when resolving fails.
func RenderResolved(ctx context.Context, md string, resolve Resolver, mark func(shown, file string) string) string {
	return textpkg.RenderLinks(md, func(l textpkg.Wikilink) string {
		if l.Target == "" {
			return l.Shown
		}
		file, ok, err := resolve(ctx, l.Target)
		if err != nil || !ok {
			return l.Shown
		}
		return mark(l.Shown, file)
	})
}

// WikilinkFiles maps the target of each wikilink of texts that resolve
// finds to its note's file; a target it does not find is left out.
func WikilinkFiles(ctx context.Context, resolve Resolver, texts ...string) (map[string]string, error) {
	out := map[string]string{}
	for _, t := range texts {
		for _, l := range textpkg.Wikilinks(t) {
			if _, done := out[l.Target]; done || l.Target == "" {
				continue
			}
			file, ok, err := resolve(ctx, l.Target)
			if err != nil {
				return nil, err
			}
			if ok {
				out[l.Target] = file
			}
		}
	}
	return out, nil
}
