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

var commandDocs = map[string]commandDoc{
	"ingest": {
		synopsis: [2]string{"ingest [options] DIR...", "ingest [opciones] CARPETA..."},
		about: [2]string{
			"Reads the notes (.md, .markdown, .txt) under each folder and brings the index up to date: only files whose content changed are processed again, and notes whose files are gone leave the index.",
			"Lee las notas (.md, .markdown, .txt) de cada carpeta y pone el índice al día: solo se procesan de nuevo los archivos cuyo contenido cambió, y las notas cuyos archivos ya no están salen del índice.",
		},
		args: [][4]string{{"DIR", "CARPETA", "a folder of notes, read recursively (hidden folders skipped)", "una carpeta de notas, leída entera (sin las carpetas ocultas)"}},
		examples: []string{
			"oraculo ingest examples/campaign",
			"oraculo ingest --embedder ollama ~/Obsidian/Campaña",
			"oraculo ingest --secret-folders DM,Secretos --json notas/",
		},
	},
	"search": {
		synopsis: [2]string{"search [options] [QUESTION]", "search [opciones] [PREGUNTA]"},
		about: [2]string{
			"Shows the chunks that best answer a question, fused from every retrieval path (BM25, dense, entity), with the path and rank that found each.",
			"Muestra los fragmentos que mejor responden a una pregunta, fusionados de todas las vías de búsqueda (BM25, densa, entidades), con la vía y el puesto de cada uno.",
		},
		args: [][4]string{{"QUESTION", "PREGUNTA", "the question; without it, one question per line from standard input", "la pregunta; sin ella, una pregunta por línea de la entrada estándar"}},
		examples: []string{
			`oraculo search "¿Qué pasó con el archiduque?"`,
			`oraculo search --paths bm25 --k 5 --session 12 "sello gris"`,
			`oraculo search --json < preguntas.txt`,
		},
	},
	"ask": {
		synopsis: [2]string{"ask [options] QUESTION", "ask [opciones] PREGUNTA"},
		about: [2]string{
			"Answers a question from the notes alone, with the label of its source after every claim; every citation is checked, and the answer abstains when the notes do not say. Without a chat model, the answer is the notes' own sentences.",
			"Responde una pregunta solo con lo que dicen las notas, con la etiqueta de su fuente tras cada afirmación; cada cita se comprueba, y la respuesta se abstiene cuando las notas no lo dicen. Sin modelo de chat, la respuesta son frases de las propias notas.",
		},
		args: [][4]string{{"QUESTION", "PREGUNTA", "the question (several words need no quotes)", "la pregunta (varias palabras no necesitan comillas)"}},
		examples: []string{
			`oraculo ask "¿Qué pasó con el archiduque?"`,
			`oraculo ask --chat ollama --chat-model qwen2.5:7b "¿Quién traicionó a la compañía?"`,
			`oraculo ask --json --session 3-5 "¿Dónde estaba el sello?"`,
		},
	},
	"chat": {
		synopsis: [2]string{"chat [options]", "chat [opciones]"},
		about: [2]string{
			"A conversation in the terminal: follow-up questions keep their subject, answers stream, /open N shows source N, /new starts over, /exit (or Ctrl-D) leaves.",
			"Una conversación en la terminal: las preguntas de seguimiento conservan su tema, las respuestas llegan según se escriben, /open N muestra la fuente N, /new empieza de nuevo, /exit (o Ctrl-D) sale.",
		},
		examples: []string{"oraculo chat", "oraculo chat --chat ollama --as player"},
	},
	"show": {
		synopsis: [2]string{"show [options] ID...", "show [opciones] ID..."},
		about: [2]string{
			"Prints the chunk behind a search hit's or a citation's id: its label, note, headings and whole text.",
			"Muestra el fragmento de un resultado de búsqueda o de una cita por su id: etiqueta, nota, encabezados y texto entero.",
		},
		args:     [][4]string{{"ID", "ID", "a chunk's id, as search, ask and chunks print it", "el id de un fragmento, como lo muestran search, ask y chunks"}},
		examples: []string{"oraculo show 81f63a8c4a8eb7f8", "oraculo show --json 81f63a8c4a8eb7f8 fe7ff391cba88c0c"},
	},
	"chunks": {
		synopsis: [2]string{"chunks [options] [PATH...]", "chunks [opciones] [RUTA...]"},
		about: [2]string{
			"Lists the chunks the notes were cut into: label, file, session, heading path, words and first line.",
			"Lista los fragmentos en que se cortaron las notas: etiqueta, archivo, sesión, encabezados, palabras y primera línea.",
		},
		args:     [][4]string{{"PATH", "RUTA", "only the notes whose path (relative to the ingested folder) starts so", "solo las notas cuya ruta (relativa a la carpeta ingerida) empieza así"}},
		examples: []string{"oraculo chunks", "oraculo chunks --json Sesiones/"},
	},
	"stats": {
		synopsis: [2]string{"stats [options]", "stats [opciones]"},
		about: [2]string{
			"What the index holds: notes, sessions, chunks, paragraphs, size on disk, compendium entities, vectors per model, DM-only notes and why.",
			"Qué contiene el índice: notas, sesiones, fragmentos, párrafos, tamaño en disco, entidades del compendio, vectores por modelo, notas solo para el DM y por qué.",
		},
		examples: []string{"oraculo stats", "oraculo stats --json"},
	},
	"eval": {
		synopsis: [2]string{"eval --golden FILE [options] | eval --compare A.json B.json", "eval --golden ARCHIVO [opciones] | eval --compare A.json B.json"},
		about: [2]string{
			"Measures retrieval against a golden set of questions (recall, MRR, the failures of each path; with --answers, reranking, abstention and citations), or compares two runs.",
			"Mide la búsqueda con un conjunto de preguntas de referencia (recall, MRR, los fallos de cada vía; con --answers, reordenación, abstención y citas), o compara dos ejecuciones.",
		},
		examples: []string{
			"oraculo eval --golden examples/golden.yaml",
			"oraculo eval --golden examples/golden.yaml --json > antes.json",
			"oraculo eval --compare antes.json despues.json",
		},
	},
	"bench": {
		synopsis: [2]string{"bench [options]", "bench [opciones]"},
		about: [2]string{
			"Times the pipeline on the index: latency per stage, throughput and peak memory.",
			"Cronometra el proceso sobre el índice: latencia por etapa, rendimiento y pico de memoria.",
		},
		examples: []string{"oraculo bench", "oraculo bench --questions preguntas.txt --n 200 --json"},
	},
	"compendium": {
		synopsis: [2]string{"compendium [list|show NAME] [options]", "compendium [list|show NOMBRE] [opciones]"},
		about: [2]string{
			"Who and what the notes name (people, places, factions, things), with aliases and where each is mentioned.",
			"Quién y qué nombran las notas (personas, lugares, facciones, objetos), con sus alias y dónde se menciona cada uno.",
		},
		args: [][4]string{
			{"list", "list", "every entity (the default)", "todas las entidades (por defecto)"},
			{"show NAME", "show NOMBRE", "one entity, by name or alias", "una entidad, por nombre o alias"},
		},
		examples: []string{"oraculo compendium", "oraculo compendium list --kind npc", `oraculo compendium show "Leoric Valcárcel"`},
	},
	"mcp": {
		synopsis: [2]string{"mcp [options]", "mcp [opciones]"},
		about: [2]string{
			"An MCP server on standard input and output, for Claude Desktop and other MCP clients (tools: search, ask, read_chunk, read_note, compendium, and memory_list, memory_show, memory_add, memory_verify, memory_supersede, memory_forget).",
			"Un servidor MCP por la entrada y la salida estándar, para Claude Desktop y otros clientes MCP (herramientas: search, ask, read_chunk, read_note, compendium, y memory_list, memory_show, memory_add, memory_verify, memory_supersede, memory_forget).",
		},
		examples: []string{"oraculo mcp --db ~/campaña/.oraculo/oraculo.db", "oraculo mcp --public-url http://127.0.0.1:8080"},
	},
	"serve": {
		synopsis: [2]string{"serve [options]", "serve [opciones]"},
		about: [2]string{
			"The web chat page, a JSON API, an OpenAI-compatible endpoint (/v1) and MCP over HTTP (/mcp). Without a tokens file it answers loopback clients only, as the DM.",
			"La página web de chat, una API JSON, un punto compatible con OpenAI (/v1) y MCP por HTTP (/mcp). Sin archivo de tokens solo responde a clientes locales, como el DM.",
		},
		examples: []string{
			"oraculo serve",
			"oraculo serve --chat ollama --addr 0.0.0.0:8080 --tokens tokens.yaml",
			"oraculo serve --public-url https://oraculo.example --obsidian-vault Campaña",
		},
	},
	"doctor": {
		synopsis: [2]string{"doctor [options]", "doctor [opciones]"},
		about: [2]string{
			"Checks the index and tries the embedding server and the chat model once each, saying how long they took; for Ollama it lists the models pulled and prints the ollama pull a missing one needs. Exits 1 when something configured does not work.",
			"Revisa el índice y prueba una vez el servidor de embeddings y el modelo de chat, con lo que tardó cada uno; con Ollama lista los modelos descargados y escribe el ollama pull que falta. Sale con 1 cuando algo configurado no funciona.",
		},
		examples: []string{"oraculo doctor", "oraculo doctor --chat ollama --embedder ollama --timeout 10s"},
	},
	"memory add": {
		synopsis: [2]string{"memory add --scope S --key K --value V [options]", "memory add --scope S --key K --value V [opciones]"},
		about: [2]string{
			"Adds an entry to the index's long-term memory: a value for a key in a scope (campaign, dm, player:NAME or session:N), with its source: a note of the index (--source, at the version stored now) or stated by you today. It is a hypothesis unless --verified; a key that already has an active entry in the scope is superseded instead (memory supersede). Verified entries are evidence in answers, cited as [Memoria: KEY]; a player (--as player:NAME) may add hypotheses in player:NAME only.",
			"Añade una entrada a la memoria a largo plazo del índice: un valor para una clave en un ámbito (campaign, dm, player:NOMBRE o session:N), con su fuente: una nota del índice (--source, en la versión guardada ahora) o dicho por ti hoy. Es una hipótesis salvo con --verified; una clave que ya tiene una entrada activa en el ámbito se sustituye (memory supersede). Las entradas verificadas son pruebas en las respuestas, citadas como [Memoria: CLAVE]; un jugador (--as player:NOMBRE) solo puede añadir hipótesis en player:NOMBRE.",
		},
		examples: []string{`oraculo memory add --scope campaign --key criticos --value "un 20 natural hace el doble de daño"`, "oraculo memory add --scope player:ana --key personaje --value Elara --source notas/pjs.md --verified"},
	},
	"memory list": {
		synopsis: [2]string{"memory list [options]", "memory list [opciones]"},
		about:    [2]string{"Lists the active memory entries you may see (every one with --all); an entry whose note changed since is marked possibly stale.", "Lista las entradas de memoria activas que puedes ver (todas con --all); una entrada cuya nota cambió desde entonces se marca como posiblemente caducada."},
		examples: []string{"oraculo memory list", "oraculo memory list --scope campaign --all --json"},
	},
	"memory show": {
		synopsis: [2]string{"memory show ID [options]", "memory show ID [opciones]"},
		about:    [2]string{"Shows an entry and the entries it superseded, newest first.", "Muestra una entrada y las que sustituyó, de la más nueva a la más vieja."},
		args:     [][4]string{{"ID", "ID", "the entry's id (m1, m2…)", "el id de la entrada (m1, m2…)"}},
		examples: []string{"oraculo memory show m3"},
	},
	"memory verify": {
		synopsis: [2]string{"memory verify ID [options]", "memory verify ID [opciones]"},
		about:    [2]string{"Marks an entry verified (the DM only). An entry taken from a note is checked against the note as stored now: its source moves to that version and it is no longer stale.", "Marca una entrada como verificada (solo el DM). Una entrada sacada de una nota se contrasta con la nota tal como está guardada ahora: su fuente pasa a esa versión y deja de estar caducada."},
		args:     [][4]string{{"ID", "ID", "the entry's id", "el id de la entrada"}},
		examples: []string{"oraculo memory verify m3"},
	},
	"memory supersede": {
		synopsis: [2]string{"memory supersede ID --value V [options]", "memory supersede ID --value V [opciones]"},
		about:    [2]string{"Replaces an active entry with a new value: the new entry (a hypothesis) names the old one, which stays in the chain, inactive.", "Sustituye una entrada activa por un valor nuevo: la entrada nueva (una hipótesis) nombra a la vieja, que queda en la cadena, inactiva."},
		args:     [][4]string{{"ID", "ID", "the active entry's id", "el id de la entrada activa"}},
		examples: []string{`oraculo memory supersede m3 --value "el triple de daño"`},
	},
	"memory forget": {
		synopsis: [2]string{"memory forget ID [options]", "memory forget ID [opciones]"},
		about:    [2]string{"Deletes an entry for good, with every link to it; no older entry becomes active in its place. With --chain, also the entries it superseded (personal information gone with its history).", "Borra una entrada para siempre, con todo enlace a ella; ninguna entrada anterior pasa a estar activa en su lugar. Con --chain, también las entradas que sustituyó (un dato personal se va con su historia)."},
		args:     [][4]string{{"ID", "ID", "the entry's id", "el id de la entrada"}},
		examples: []string{"oraculo memory forget m3", "oraculo memory forget m3 --chain"},
	},
	"token add": {
		synopsis: [2]string{"token add NAME --role player|dm [options]", "token add NOMBRE --role player|dm [opciones]"},
		about: [2]string{
			"Creates an access token for the server and prints it once (it is stored hashed).",
			"Crea un token de acceso para el servidor y lo muestra una sola vez (se guarda su hash).",
		},
		args:     [][4]string{{"NAME", "NOMBRE", "who the token is for", "para quién es el token"}},
		examples: []string{"oraculo token add ana --role player", "oraculo token add dm --role dm"},
	},
	"token list": {
		synopsis: [2]string{"token list [options]", "token list [opciones]"},
		about:    [2]string{"Lists the server's tokens: name, role, when made (never the token).", "Lista los tokens del servidor: nombre, rol, cuándo se crearon (nunca el token)."},
		examples: []string{"oraculo token list"},
	},
	"token remove": {
		synopsis: [2]string{"token remove NAME [options]", "token remove NOMBRE [opciones]"},
		about:    [2]string{"Removes a token: the server refuses it from then on.", "Elimina un token: el servidor lo rechaza desde entonces."},
		args:     [][4]string{{"NAME", "NOMBRE", "the token's name", "el nombre del token"}},
		examples: []string{"oraculo token remove ana"},
	},
}

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
	doc, ok := commandDocs[name]
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
