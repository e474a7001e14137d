package main

import (
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
	"time"
)

// commandDoc is what "oraculo COMMAND -h" says besides the options, in
// English and Spanish.
type commandDoc struct {
	synopsis [2]string   // after "oraculo "
	about    [2]string   // what the command does
	args     [][4]string // name in English and in Spanish, what it is in English and in Spanish
	examples []string    // command lines, the same in both languages
}

// commonFlags are the flags every command has: listed apart, last.
var commonFlags = []string{"db", "as", "config", "ui-lang", "backend", "weaviate-url", "collection", "weaviate-replication"}

// tr picks the English or Spanish text for the interface language.
func tr(t [2]string) string {
	if lang == "es" {
		return t[1]
	}
	return t[0]
}

// writeHelp prints a command's help: its synopsis, what it does, its
// arguments, examples, and its options with their real defaults (the
// common ones apart).
func writeHelp(w io.Writer, name string, fs *flag.FlagSet) {
	doc, ok := docOf(name)
	heading := func(en, es string) { fmt.Fprintf(w, "\n%s\n", tr([2]string{en, es})) }
	if ok {
		fmt.Fprintf(w, "%s oraculo %s\n", tr([2]string{"Usage:", "Uso:"}), tr(doc.synopsis))
		fmt.Fprintf(w, "\n%s\n", wrapText(tr(doc.about), 78, ""))
		if len(doc.args) > 0 {
			heading("Arguments:", "Argumentos:")
			tw := tabwriter.NewWriter(w, 0, 0, 3, ' ', 0)
			for _, a := range doc.args {
				fmt.Fprintf(tw, "  %s\t%s\n", tr([2]string{a[0], a[1]}), tr([2]string{a[2], a[3]}))
			}
			tw.Flush()
		}
		if len(doc.examples) > 0 {
			heading("Examples:", "Ejemplos:")
			for _, e := range doc.examples {
				fmt.Fprintf(w, "  %s\n", e)
			}
		}
	} else {
		fmt.Fprintf(w, "%s oraculo %s [%s]\n", tr([2]string{"Usage:", "Uso:"}), name, tr([2]string{"options", "opciones"}))
	}
	var own, common []*flag.Flag
	fs.VisitAll(func(f *flag.Flag) {
		if slices.Contains(commonFlags, f.Name) {
			common = append(common, f)
		} else {
			own = append(own, f)
		}
	})
	if len(own) > 0 {
		heading("Options:", "Opciones:")
		writeFlags(w, name, own)
	}
	heading("Common options:", "Opciones comunes:")
	writeFlags(w, name, common)
}

// writeFlags lists flags, each with its value's kind, what it does and
// its default when it has one worth saying (not a zero value, not a
// sentinel such as -1 that the text explains).
func writeFlags(w io.Writer, cmd string, flags []*flag.Flag) {
	for _, f := range flags {
		kind, usage := flag.UnquoteUsage(f)
		usage = flagUsage(cmd, f.Name, usage)
		head := "  --" + f.Name
		if kind != "" {
			head += " " + valueName(f.Name, kind)
		}
		if def := shownDefault(f); def != "" && !strings.Contains(usage, "(default") && !strings.Contains(usage, "(por defecto") {
			usage += " (" + tr([2]string{"default ", "por defecto "}) + def + ")"
		}
		fmt.Fprintln(w, head)
		fmt.Fprintln(w, wrapText(usage, 78, "      "))
	}
}

// fileFlags are the flags whose value is a file, dirFlags a folder,
// listFlags a comma-separated list, urlFlags an address.
var (
	fileFlags = []string{"db", "config", "tokens", "golden", "questions"}
	dirFlags  = []string{"report"}
	listFlags = []string{"paths", "secret-folders", "cors"}
	urlFlags  = []string{"chat-url", "embed-url", "rerank-url", "public-url", "weaviate-url"}
)

// valueName names the value of flag name, of the flag package's kind, in
// the interface language.
func valueName(name, kind string) string {
	switch {
	case slices.Contains(fileFlags, name):
		return tr([2]string{"FILE", "ARCHIVO"})
	case slices.Contains(dirFlags, name):
		return tr([2]string{"DIR", "CARPETA"})
	case slices.Contains(listFlags, name):
		return tr([2]string{"LIST", "LISTA"})
	case slices.Contains(urlFlags, name):
		return "URL"
	case name == "backend":
		return "sqlite|weaviate"
	case name == "collection":
		return tr([2]string{"NAME", "NOMBRE"})
	}
	names := map[string][2]string{
		"string": {"TEXT", "TEXTO"}, "int": {"N", "N"}, "float": {"X", "X"},
		"duration": {"DURATION", "DURACIÓN"}, "value": {"VALUE", "VALOR"},
	}
	if n, ok := names[kind]; ok {
		return tr(n)
	}
	return strings.ToUpper(kind)
}

// shownDefault is a flag's default as help should say it, or "".
func shownDefault(f *flag.Flag) string {
	switch v := f.DefValue; v {
	case "", "0", "false", "-1", "0s", "[]":
		return ""
	default:
		if d, err := time.ParseDuration(v); err == nil {
			if d == 0 {
				return ""
			}
			// 3m rather than the flag package's 3m0s.
			for _, zero := range []string{"m0s", "h0m"} {
				if strings.HasSuffix(v, zero) {
					v = strings.TrimSuffix(v, zero[1:])
				}
			}
		}
		return v
	}
}

// wrapText wraps s at word boundaries to width columns, each line after
// indent.
func wrapText(s string, width int, indent string) string {
	var b strings.Builder
	col := 0
	for _, word := range strings.Fields(s) {
		switch {
		case col == 0:
			b.WriteString(indent)
			col = len(indent)
		case col+1+len([]rune(word)) > width:
			b.WriteString("\n" + indent)
			col = len(indent)
		default:
			b.WriteByte(' ')
			col++
		}
		b.WriteString(word)
		col += len([]rune(word))
	}
	return b.String()
}

// flagUsage is the text of flag name of command cmd in the interface
// language: the Spanish of flagUsageES ("cmd/name" first, then "name"),
// or usage, the English given where the flag is defined.
func flagUsage(cmd, name, usage string) string {
	if lang != "es" {
		return usage
	}
	if s, ok := flagUsageES[cmd+"/"+name]; ok {
		return s
	}
	if s, ok := flagUsageES[name]; ok {
		return s
	}
	return usage
}
