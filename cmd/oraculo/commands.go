package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
)

// stdio are the streams a command reads and writes.
type stdio struct {
	in       io.Reader
	out, err io.Writer
}

// command is one of oraculo's commands: the name it is called by, its
// line in the usage, its help, its flags and what it does. The table of
// them, commands, is the only list: run dispatches on it, "oraculo help"
// lists it, "oraculo COMMAND -h" prints an entry's help over its flags,
// and a mistyped flag is matched against the flags of the entry that ran.
type command struct {
	name  string
	alias string
	// usage is the command's line (lines, for eval) in "oraculo help",
	// after "oraculo ", in English and Spanish.
	usage [2]string
	doc   commandDoc
	// verbs are a command's own commands (memory add, token list): the
	// first argument picks one, and verbsUsage is the message that lists
	// them when it names none.
	verbs      []command
	verbsUsage string
	action
}

// action is what a command (or a verb of one) does: flags makes its flag
// set, named after it, and run parses its arguments and runs it.
type action struct {
	flags func(name string, stderr io.Writer) *flag.FlagSet
	run   func(ctx context.Context, name string, args []string, s stdio) error
}

// parsed is the action of a command whose flags newFlags defines, run
// with them parsed and the arguments left.
func parsed[F any](newFlags func(name string, stderr io.Writer) (*flag.FlagSet, F), run func(ctx context.Context, f F, args []string, s stdio) error) action {
	return action{
		flags: func(name string, stderr io.Writer) *flag.FlagSet {
			fs, _ := newFlags(name, stderr)
			return fs
		},
		run: func(ctx context.Context, name string, args []string, s stdio) error {
			fs, f := newFlags(name, s.err)
			rest, err := parse(fs, args)
			if err != nil {
				return err
			}
			return run(ctx, f, rest, s)
		},
	}
}

// lookup is the entry of cmds called name.
func lookup(cmds []command, name string) (command, bool) {
	for _, c := range cmds {
		if c.name == name || c.alias != "" && c.alias == name {
			return c, true
		}
	}
	return command{}, false
}

// dispatch runs c with args, or the verb of c that args begin with; it
// returns the entry that ran. A command with verbs and none named fails
// with the list of its verbs, unless asked for help.
func (c command) dispatch(ctx context.Context, args []string, s stdio) (command, error) {
	if c.verbs == nil {
		return c, c.run(ctx, c.name, args, s)
	}
	if len(args) > 0 {
		if v, ok := lookup(c.verbs, c.name+" "+args[0]); ok {
			return v, v.run(ctx, v.name, args[1:], s)
		}
		if args[0] == "-h" || args[0] == "--help" {
			fmt.Fprintln(s.out, msg(c.verbsUsage))
			return c, nil
		}
	}
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		if near := nearestCommand(c.verbs, args[0]); near != "" {
			return c, usageError{errors.New(msg("unknown-verb", c.name, args[0], msg("did-you-mean", msg("quoted", near))))}
		}
	}
	return c, usageError{errors.New(msg(c.verbsUsage))}
}

// usage is what "oraculo help" prints: every command of the table with
// its flags in short, in the interface language.
func usage() string {
	var b strings.Builder
	b.WriteString(msg("usage-head"))
	for _, c := range commands {
		for _, line := range strings.Split(tr(c.usage), "\n") {
			fmt.Fprintf(&b, "  oraculo %s\n", line)
		}
	}
	b.WriteString(msg("usage-foot"))
	return b.String()
}

// docOf is the help of the command or verb called name ("memory add").
func docOf(name string) (commandDoc, bool) {
	top, verb, _ := strings.Cut(name, " ")
	c, ok := lookup(commands, top)
	if ok && verb != "" {
		c, ok = lookup(c.verbs, name)
	}
	return c.doc, ok && c.doc.synopsis[0] != ""
}

func printVersion(_ context.Context, _ string, _ []string, s stdio) error {
	fmt.Fprintln(s.out, "oraculo", version)
	return nil
}

// commands are oraculo's commands, in the order "oraculo help" lists them.
var commands = []command{
	{
		name:  "ingest",
		usage: [2]string{"ingest [--db FILE] [--lang es|en] [--max-words N] [--overlap-words N] DIR...", "ingest [--db ARCHIVO] [--lang es|en] [--max-words N] [--overlap-words N] CARPETA..."},
		doc: commandDoc{
			synopsis: [2]string{"ingest [options] DIR...", "ingest [opciones] CARPETA..."},
			about: [2]string{
				"Reads the notes (.md, .markdown, .txt) under each folder and brings the index up to date: only files whose content changed are processed again, and notes whose files are gone leave the index.",
				"Lee las notas (.md, .markdown, .txt) de cada carpeta y pone el índice al día: solo se procesan de nuevo los archivos cuyo contenido cambió, y las notas cuyos archivos ya no están salen del índice.",
			},
			args: [][4]string{{"DIR", "CARPETA", "a folder of notes, read recursively (hidden folders skipped, and in an Obsidian vault its templates folder and its \"Excluded files\")", "una carpeta de notas, leída entera (sin las carpetas ocultas, y en una bóveda de Obsidian sin su carpeta de plantillas ni sus «Archivos excluidos»)"}},
			examples: []string{
				"oraculo ingest examples/campaign",
				"oraculo ingest --embedder ollama ~/Obsidian/Campaña",
				"oraculo ingest --secret-folders DM,Secretos --json notas/",
			},
		},
		action: parsed(newIngestFlags, cmdIngest),
	},
	{
		name:  "search",
		usage: [2]string{"search [--db FILE] [--k N] [--paths LIST] [--json] [QUESTION]", "search [--db ARCHIVO] [--k N] [--paths LISTA] [--json] [PREGUNTA]"},
		doc: commandDoc{
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
		action: parsed(newSearchFlags, cmdSearch),
	},
	{
		name:  "ask",
		usage: [2]string{"ask    [--db FILE] [--json] [--chat ollama|openai|none] [--extractive] QUESTION", "ask    [--db ARCHIVO] [--json] [--chat ollama|openai|none] [--extractive] PREGUNTA"},
		doc: commandDoc{
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
		action: parsed(newAskCommandFlags, cmdAsk),
	},
	{
		name:  "chat",
		usage: [2]string{"chat   [--db FILE] [--chat ollama|openai|none]", "chat   [--db ARCHIVO] [--chat ollama|openai|none]"},
		doc: commandDoc{
			synopsis: [2]string{"chat [options]", "chat [opciones]"},
			about: [2]string{
				"A conversation in the terminal: follow-up questions keep their subject, answers stream, /open N shows source N, /new starts over, /exit (or Ctrl-D) leaves.",
				"Una conversación en la terminal: las preguntas de seguimiento conservan su tema, las respuestas llegan según se escriben, /open N muestra la fuente N, /new empieza de nuevo, /exit (o Ctrl-D) sale.",
			},
			examples: []string{"oraculo chat", "oraculo chat --chat ollama --as player"},
		},
		action: parsed(newAskFlags, cmdChat),
	},
	{
		name:  "show",
		usage: [2]string{"show   [--db FILE] [--json] ID...", "show   [--db ARCHIVO] [--json] ID..."},
		doc: commandDoc{
			synopsis: [2]string{"show [options] ID...", "show [opciones] ID..."},
			about: [2]string{
				"Prints the chunk behind a search hit's or a citation's id: its label, note, headings and whole text.",
				"Muestra el fragmento de un resultado de búsqueda o de una cita por su id: etiqueta, nota, encabezados y texto entero.",
			},
			args:     [][4]string{{"ID", "ID", "a chunk's id, as search, ask and chunks print it", "el id de un fragmento, como lo muestran search, ask y chunks"}},
			examples: []string{"oraculo show 81f63a8c4a8eb7f8", "oraculo show --json 81f63a8c4a8eb7f8 fe7ff391cba88c0c"},
		},
		action: parsed(jsonIndexFlags("print as JSON"), cmdShow),
	},
	{
		name:  "chunks",
		usage: [2]string{"chunks [--db FILE] [--json] [PATH...]", "chunks [--db ARCHIVO] [--json] [RUTA...]"},
		doc: commandDoc{
			synopsis: [2]string{"chunks [options] [PATH...]", "chunks [opciones] [RUTA...]"},
			about: [2]string{
				"Lists the chunks the notes were cut into: label, file, session, heading path, words and first line.",
				"Lista los fragmentos en que se cortaron las notas: etiqueta, archivo, sesión, encabezados, palabras y primera línea.",
			},
			args:     [][4]string{{"PATH", "RUTA", "only the notes whose path (relative to the ingested folder) starts so", "solo las notas cuya ruta (relativa a la carpeta ingerida) empieza así"}},
			examples: []string{"oraculo chunks", "oraculo chunks --json Sesiones/"},
		},
		action: parsed(jsonIndexFlags("one JSON object per chunk, on one line"), cmdChunks),
	},
	{
		name:  "stats",
		usage: [2]string{"stats  [--db FILE] [--json]", "stats  [--db ARCHIVO] [--json]"},
		doc: commandDoc{
			synopsis: [2]string{"stats [options]", "stats [opciones]"},
			about: [2]string{
				"What the index holds: notes, sessions, chunks, paragraphs, size on disk, compendium entities, vectors per model, DM-only notes and why.",
				"Qué contiene el índice: notas, sesiones, fragmentos, párrafos, tamaño en disco, entidades del compendio, vectores por modelo, notas solo para el DM y por qué.",
			},
			examples: []string{"oraculo stats", "oraculo stats --json"},
		},
		action: parsed(jsonIndexFlags("print as JSON"), cmdStats),
	},
	{
		name:  "compendium",
		usage: [2]string{"compendium [list|show NAME] [--kind KIND] [--json]", "compendium [list|show NOMBRE] [--kind TIPO] [--json]"},
		doc: commandDoc{
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
		action: parsed(newCompendiumFlags, cmdCompendium),
	},
	{
		name:  "timeline",
		usage: [2]string{"timeline NAME [--json]   (every session that names someone or something, in order)", "timeline NOMBRE [--json]   (cada sesión que nombra a alguien o algo, en orden)"},
		doc: commandDoc{
			synopsis: [2]string{"timeline NAME [options]", "timeline NOMBRE [opciones]"},
			about: [2]string{
				"The story of one person, place or thing of the compendium, in session order: every session whose notes name it (by its name or any alias), with the sentence that says most about it there and where it comes from, its in-game date when the notes give one, its long absences, and the other notes that name it. With --as player, only what players may see.",
				"La historia de una persona, lugar u objeto del compendio, por orden de sesión: cada sesión cuyas notas lo nombran (por su nombre o cualquier alias), con la frase que más dice de él allí y de dónde viene, su fecha en el juego cuando las notas la dan, sus ausencias largas, y las demás notas que lo nombran. Con --as player, solo lo que pueden ver los jugadores.",
			},
			args: [][4]string{
				{"NAME", "NOMBRE", "a name or alias (case and accents do not matter)", "un nombre o alias (dan igual mayúsculas y tildes)"},
			},
			examples: []string{`oraculo timeline Chispa`, `oraculo timeline "el archiduque" --json`, `oraculo timeline Emeric --as player`},
		},
		action: parsed(jsonIndexFlags("print as JSON"), cmdTimeline),
	},
	{
		name:  "recap",
		usage: [2]string{"recap  [SESSION] [--json]", "recap  [SESIÓN] [--json]"},
		doc: commandDoc{
			synopsis: [2]string{"recap [SESSION] [options]", "recap [SESIÓN] [opciones]"},
			about: [2]string{
				"A session's recap: its events in order (its most salient sentences, never an attendance list or a remark about the table) and what it left open (unchecked tasks, unanswered questions, a cliffhanger), each citing its passage.",
				"El resumen de una sesión: lo que pasó, en orden (sus frases más destacadas, nunca una lista de asistencia ni un comentario de la mesa) y lo que quedó abierto (tareas sin marcar, preguntas sin respuesta, un final en suspenso), cada cosa citando su pasaje.",
			},
			args: [][4]string{
				{"SESSION", "SESIÓN", "the session's number (default: the last one)", "el número de la sesión (por defecto: la última)"},
			},
			examples: []string{"oraculo recap", "oraculo recap 12", "oraculo recap --as player --json"},
		},
		action: parsed(jsonIndexFlags("print as one JSON object"), cmdRecap),
	},
	{
		name:  "threads",
		usage: [2]string{"threads [--quiet N] [--json]", "threads [--quiet N] [--json]"},
		doc: commandDoc{
			synopsis: [2]string{"threads [options]", "threads [opciones]"},
			about: [2]string{
				"The threads the notes left open: unchecked tasks (- [ ]), quests without a resolution, and who or what came up in two or more sessions but in none of the last N; each with where it was introduced and last mentioned, the longest open and most mentioned first.",
				"Los hilos que las notas dejaron abiertos: tareas sin marcar (- [ ]), misiones sin resolver, y quién o qué salió en dos sesiones o más pero en ninguna de las N últimas; cada uno con dónde apareció y dónde se mencionó por última vez, primero los abiertos hace más tiempo y más mencionados.",
			},
			examples: []string{"oraculo threads", "oraculo threads --quiet 3 --json", "oraculo threads --as player"},
		},
		action: parsed(newThreadsFlags, cmdThreads),
	},
	{
		name:  "check",
		usage: [2]string{"check  [--json] [--chat ollama|openai|none]", "check  [--json] [--chat ollama|openai|none]"},
		doc: commandDoc{
			synopsis: [2]string{"check [options]", "check [opciones]"},
			about: [2]string{
				"The notes' continuity errors, for the DM to read before a session: an entity said to die, leave or be destroyed and later acting, and two notes giving one entity different values of a front-matter field; each pair with both citations, judged by the chat model when there is one.",
				"Los errores de continuidad de las notas, para que el DM los lea antes de una sesión: una entidad que muere, se marcha o es destruida y luego actúa, y dos notas que dan a una entidad valores distintos de un campo del front matter; cada par con sus dos citas, juzgado por el modelo de chat si lo hay.",
			},
			examples: []string{"oraculo check", "oraculo check --json", "oraculo check --as player"},
		},
		action: parsed(newCheckFlags, cmdCheck),
	},
	{
		name:  "mcp",
		usage: [2]string{"mcp    [--db FILE] [--chat ollama|openai|none]   (an MCP server on stdin/stdout)", "mcp    [--db ARCHIVO] [--chat ollama|openai|none]   (un servidor MCP por stdin/stdout)"},
		doc: commandDoc{
			synopsis: [2]string{"mcp [options]", "mcp [opciones]"},
			about: [2]string{
				"An MCP server on standard input and output, for Claude Desktop and other MCP clients (tools: search, ask, read_chunk, read_note, compendium, timeline, recap, threads, check, and memory_list, memory_show, memory_add, memory_verify, memory_supersede, memory_forget).",
				"Un servidor MCP por la entrada y la salida estándar, para Claude Desktop y otros clientes MCP (herramientas: search, ask, read_chunk, read_note, compendium, timeline, recap, threads, check, y memory_list, memory_show, memory_add, memory_verify, memory_supersede, memory_forget).",
			},
			examples: []string{"oraculo mcp --db ~/campaña/.oraculo/oraculo.db", "oraculo mcp --public-url http://127.0.0.1:8080"},
		},
		action: parsed(newMCPFlags, cmdMCP),
	},
	{
		name:  "serve",
		usage: [2]string{"serve  [--db FILE] [--addr 127.0.0.1:8080] [--tokens FILE] [--chat ...]   (HTTP API, web page, OpenAI-compatible /v1)", "serve  [--db ARCHIVO] [--addr 127.0.0.1:8080] [--tokens ARCHIVO] [--chat ...]   (API HTTP, página web, /v1 compatible con OpenAI)"},
		doc: commandDoc{
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
		action: parsed(newServeFlags, cmdServe),
	},
	{
		name:  "doctor",
		usage: [2]string{"doctor [--db FILE] [--chat ...] [--embedder ...]   (checks the index and tries each model server once)", "doctor [--db ARCHIVO] [--chat ...] [--embedder ...]   (revisa el índice y prueba una vez cada servidor de modelos)"},
		doc: commandDoc{
			synopsis: [2]string{"doctor [options]", "doctor [opciones]"},
			about: [2]string{
				"Checks the index and tries the embedding server and the chat model once each, saying how long they took; for Ollama it lists the models pulled and prints the ollama pull a missing one needs. Exits 1 when something configured does not work.",
				"Revisa el índice y prueba una vez el servidor de embeddings y el modelo de chat, con lo que tardó cada uno; con Ollama lista los modelos descargados y escribe el ollama pull que falta. Sale con 1 cuando algo configurado no funciona.",
			},
			examples: []string{"oraculo doctor", "oraculo doctor --chat ollama --embedder ollama --timeout 10s"},
		},
		action: parsed(newDoctorFlags, cmdDoctor),
	},
	{
		name:  "health",
		usage: [2]string{"health [--addr 127.0.0.1:8080]   (asks a running serve whether it answers: exit 0 or 1)", "health [--addr 127.0.0.1:8080]   (pregunta a un serve en marcha si responde: sale con 0 o 1)"},
		doc: commandDoc{
			synopsis: [2]string{"health [options]", "health [opciones]"},
			about: [2]string{
				"Asks the server that oraculo serve runs whether it can answer (GET /healthz: the index open), for a container's HEALTHCHECK or a service manager, where there is no curl. It reads serve's section of the config file too, so both agree on the address. Exits 0 when the server says ok, 1 when it says otherwise or does not answer within 5s.",
				"Pregunta al servidor que ejecuta oraculo serve si puede responder (GET /healthz: el índice abierto), para el HEALTHCHECK de un contenedor o un gestor de servicios, donde no hay curl. Lee también la sección de serve del archivo de configuración, para que ambos coincidan en la dirección. Sale con 0 cuando el servidor dice ok, con 1 cuando dice otra cosa o no responde en 5 s.",
			},
			examples: []string{"oraculo health", "oraculo health --addr 0.0.0.0:8080"},
		},
		action: parsed(newHealthFlags, cmdHealth),
	},
	{
		name:       "token",
		usage:      [2]string{"token  add NAME --role player|dm | list | remove NAME | rotate-links   [--tokens FILE]", "token  add NOMBRE --role player|dm | list | remove NOMBRE | rotate-links   [--tokens ARCHIVO]"},
		verbsUsage: "token-usage",
		verbs: []command{
			{
				name: "token add",
				doc: commandDoc{
					synopsis: [2]string{"token add NAME --role player|dm [options]", "token add NOMBRE --role player|dm [opciones]"},
					about: [2]string{
						"Creates an access token for the server and prints it once (it is stored hashed).",
						"Crea un token de acceso para el servidor y lo muestra una sola vez (se guarda su hash).",
					},
					args:     [][4]string{{"NAME", "NOMBRE", "who the token is for", "para quién es el token"}},
					examples: []string{"oraculo token add ana --role player", "oraculo token add dm --role dm"},
				},
				action: parsed(newTokenFlags, tokenAdd),
			},
			{
				name: "token list",
				doc: commandDoc{
					synopsis: [2]string{"token list [options]", "token list [opciones]"},
					about:    [2]string{"Lists the server's tokens: name, role, when made (never the token).", "Lista los tokens del servidor: nombre, rol, cuándo se crearon (nunca el token)."},
					examples: []string{"oraculo token list"},
				},
				action: parsed(newTokenFlags, tokenList),
			},
			{
				name: "token remove",
				doc: commandDoc{
					synopsis: [2]string{"token remove NAME [options]", "token remove NOMBRE [opciones]"},
					about:    [2]string{"Removes a token: the server refuses it from then on.", "Elimina un token: el servidor lo rechaza desde entonces."},
					args:     [][4]string{{"NAME", "NOMBRE", "the token's name", "el nombre del token"}},
					examples: []string{"oraculo token remove ana"},
				},
				action: parsed(newTokenFlags, tokenRemove),
			},
			{
				name: "token rotate-links",
				doc: commandDoc{
					synopsis: [2]string{"token rotate-links [options]", "token rotate-links [opciones]"},
					about: [2]string{
						"Replaces the key that signs the links to passages and notes (/c/…, /n?…) that answers carry: every link given so far stops working. Do it when the key may have leaked: whoever holds it can sign a link that opens any passage, DM-only ones included, without a token.",
						"Sustituye la clave que firma los enlaces a pasajes y notas (/c/…, /n?…) que llevan las respuestas: todo enlace dado hasta ahora deja de funcionar. Hazlo si la clave puede haberse filtrado: quien la tenga puede firmar un enlace que abre cualquier pasaje, también los solo del DM, sin token.",
					},
					examples: []string{"oraculo token rotate-links", "oraculo token rotate-links --db campaña/.oraculo/oraculo.db"},
				},
				action: parsed(newIndexFlags, cmdRotateLinks),
			},
		},
	},
	{
		name:       "memory",
		usage:      [2]string{"memory add --scope S --key K --value V | list | show ID | verify ID | supersede ID --value V | forget ID", "memory add --scope S --key K --value V | list | show ID | verify ID | supersede ID --value V | forget ID"},
		verbsUsage: "memory-usage",
		verbs: []command{
			{
				name: "memory add",
				doc: commandDoc{
					synopsis: [2]string{"memory add --scope S --key K --value V [options]", "memory add --scope S --key K --value V [opciones]"},
					about: [2]string{
						"Adds an entry to the index's long-term memory: a value for a key in a scope (campaign, dm, player:NAME or session:N), with its source: a note of the index (--source, at the version stored now) or stated by you today. It is a hypothesis unless --verified; a key that already has an active entry in the scope is superseded instead (memory supersede). Verified entries are evidence in answers, cited as [Memoria: KEY]; a player (--as player:NAME) may add hypotheses in player:NAME only.",
						"Añade una entrada a la memoria a largo plazo del índice: un valor para una clave en un ámbito (campaign, dm, player:NOMBRE o session:N), con su fuente: una nota del índice (--source, en la versión guardada ahora) o dicho por ti hoy. Es una hipótesis salvo con --verified; una clave que ya tiene una entrada activa en el ámbito se sustituye (memory supersede). Las entradas verificadas son pruebas en las respuestas, citadas como [Memoria: CLAVE]; un jugador (--as player:NOMBRE) solo puede añadir hipótesis en player:NOMBRE.",
					},
					examples: []string{`oraculo memory add --scope campaign --key criticos --value "un 20 natural hace el doble de daño"`, "oraculo memory add --scope player:ana --key personaje --value Elara --source notas/pjs.md --verified"},
				},
				action: parsed(newMemoryFlags, memoryAdd),
			},
			{
				name: "memory list",
				doc: commandDoc{
					synopsis: [2]string{"memory list [options]", "memory list [opciones]"},
					about:    [2]string{"Lists the active memory entries you may see (every one with --all); an entry whose note changed since is marked possibly stale.", "Lista las entradas de memoria activas que puedes ver (todas con --all); una entrada cuya nota cambió desde entonces se marca como posiblemente caducada."},
					examples: []string{"oraculo memory list", "oraculo memory list --scope campaign --all --json"},
				},
				action: parsed(newMemoryFlags, memoryList),
			},
			{
				name: "memory show",
				doc: commandDoc{
					synopsis: [2]string{"memory show ID [options]", "memory show ID [opciones]"},
					about:    [2]string{"Shows an entry and the entries it superseded, newest first.", "Muestra una entrada y las que sustituyó, de la más nueva a la más vieja."},
					args:     [][4]string{{"ID", "ID", "the entry's id (m1, m2…)", "el id de la entrada (m1, m2…)"}},
					examples: []string{"oraculo memory show m3"},
				},
				action: parsed(newMemoryFlags, memoryShow),
			},
			{
				name: "memory verify",
				doc: commandDoc{
					synopsis: [2]string{"memory verify ID [options]", "memory verify ID [opciones]"},
					about:    [2]string{"Marks an entry verified (the DM only). An entry taken from a note is checked against the note as stored now: its source moves to that version and it is no longer stale.", "Marca una entrada como verificada (solo el DM). Una entrada sacada de una nota se contrasta con la nota tal como está guardada ahora: su fuente pasa a esa versión y deja de estar caducada."},
					args:     [][4]string{{"ID", "ID", "the entry's id", "el id de la entrada"}},
					examples: []string{"oraculo memory verify m3"},
				},
				action: parsed(newMemoryFlags, memoryVerify),
			},
			{
				name: "memory supersede",
				doc: commandDoc{
					synopsis: [2]string{"memory supersede ID --value V [options]", "memory supersede ID --value V [opciones]"},
					about:    [2]string{"Replaces an active entry with a new value: the new entry (a hypothesis) names the old one, which stays in the chain, inactive.", "Sustituye una entrada activa por un valor nuevo: la entrada nueva (una hipótesis) nombra a la vieja, que queda en la cadena, inactiva."},
					args:     [][4]string{{"ID", "ID", "the active entry's id", "el id de la entrada activa"}},
					examples: []string{`oraculo memory supersede m3 --value "el triple de daño"`},
				},
				action: parsed(newMemoryFlags, memorySupersede),
			},
			{
				name: "memory forget",
				doc: commandDoc{
					synopsis: [2]string{"memory forget ID [options]", "memory forget ID [opciones]"},
					about:    [2]string{"Deletes an entry for good, with every link to it; no older entry becomes active in its place. With --chain, also the entries it superseded (personal information gone with its history).", "Borra una entrada para siempre, con todo enlace a ella; ninguna entrada anterior pasa a estar activa en su lugar. Con --chain, también las entradas que sustituyó (un dato personal se va con su historia)."},
					args:     [][4]string{{"ID", "ID", "the entry's id", "el id de la entrada"}},
					examples: []string{"oraculo memory forget m3", "oraculo memory forget m3 --chain"},
				},
				action: parsed(newMemoryFlags, memoryForget),
			},
		},
	},
	{
		name:  "eval",
		usage: [2]string{"eval   --golden FILE [--db FILE] [--k 50] [--json] [--report DIR] [--diagnose]\neval   --compare A.json B.json", "eval   --golden ARCHIVO [--db ARCHIVO] [--k 50] [--json] [--report CARPETA] [--diagnose]\neval   --compare A.json B.json"},
		doc: commandDoc{
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
		action: parsed(newEvalFlags, cmdEval),
	},
	{
		name:  "bench",
		usage: [2]string{"bench  [--db FILE] [--questions FILE] [--k 10] [--n N] [--ask] [--json]   (latency per stage, throughput, peak memory)", "bench  [--db ARCHIVO] [--questions ARCHIVO] [--k 10] [--n N] [--ask] [--json]   (latencia por etapa, rendimiento, pico de memoria)"},
		doc: commandDoc{
			synopsis: [2]string{"bench [options]", "bench [opciones]"},
			about: [2]string{
				"Times the pipeline on the index: latency per stage, throughput and peak memory.",
				"Cronometra el proceso sobre el índice: latencia por etapa, rendimiento y pico de memoria.",
			},
			examples: []string{"oraculo bench", "oraculo bench --questions preguntas.txt --n 200 --json"},
		},
		action: parsed(newBenchFlags, cmdBench),
	},
	{
		name:   "version",
		usage:  [2]string{"version", "version"},
		alias:  "--version",
		action: action{run: printVersion},
	},
}
