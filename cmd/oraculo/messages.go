package main

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"sync"

	"github.com/oraculo/oraculo/internal/termrender"
)

// lang is the interface language: "es" or "en".
var lang = "en"

// detectLang picks the interface language: the --ui-lang flag, else
// $ORACULO_UI_LANG, else the locale variables, in POSIX order.
func detectLang(flagValue string) string {
	for _, v := range []string{flagValue, os.Getenv("ORACULO_UI_LANG"), os.Getenv("LC_ALL"), os.Getenv("LC_MESSAGES"), os.Getenv("LANG")} {
		v = strings.ToLower(strings.TrimSpace(v))
		if v == "" || v == "c" || v == "posix" || strings.HasPrefix(v, "c.") {
			continue
		}
		if strings.HasPrefix(v, "es") {
			return "es"
		}
		return "en"
	}
	return "en"
}

var catalog = map[string][2]string{ // id → {en, es}
	"usage-head": {`Oráculo answers questions about your own notes, citing them.

Usage:
`, `Oráculo responde preguntas sobre tus propias notas, citándolas.

Uso:
`},
	"usage-foot": {`
The index is $ORACULO_DB or .oraculo/oraculo.db unless --db names it; or,
with --backend weaviate --weaviate-url URL [--collection NAME], a Weaviate
cluster, where nothing local is kept ($ORACULO_BACKEND, $ORACULO_WEAVIATE_URL;
an API key in $ORACULO_WEAVIATE_KEY).
Every command takes --ui-lang es|en for its messages (default: your locale).
Run "oraculo COMMAND -h" for a command's flags.
`, `
El índice es $ORACULO_DB o .oraculo/oraculo.db salvo que --db diga otro; o,
con --backend weaviate --weaviate-url URL [--collection NOMBRE], un clúster de
Weaviate, sin nada guardado en local ($ORACULO_BACKEND, $ORACULO_WEAVIATE_URL;
la clave de API en $ORACULO_WEAVIATE_KEY).
Todas las órdenes aceptan --ui-lang es|en para sus mensajes (por defecto, tu locale).
"oraculo ORDEN -h" muestra las opciones de una orden.
`},
	"unknown-command":             {"unknown command %q", "orden desconocida «%s»"},
	"error":                       {"error: %v", "error: %v"},
	"ingest-no-dirs":              {"ingest needs at least one folder of notes", "ingest necesita al menos una carpeta de notas"},
	"stage:read":                  {"ingesting", "ingiriendo"},
	"stage:graph":                 {"building the vector graph", "construyendo el grafo vectorial"},
	"stage:compendium":            {"building the compendium", "construyendo el compendio"},
	"stage:embed":                 {"embedding", "vectorizando"},
	"explain-one":                 {"found by %s alone (score %.3f)", "encontrado solo por %s (puntuación %.3f)"},
	"explain-coverage":            {"(its best paragraph holds %.2f of the question)", "(su mejor párrafo tiene %.2f de la pregunta)"},
	"explain-prior":               {"× %.1f (a session, and the question speaks of \"we\")", "× %.1f (una sesión, y la pregunta habla de \"nosotros\")"},
	"explain-lift":                {"%s: %.3f of the best + entity #%d: %.3f = %.3f", "%s: %.3f de la mejor + entidad #%d: %.3f = %.3f"},
	"explain-share":               {"%s: %.3f of the best (the entity path did not find it)", "%s: %.3f de la mejor (la ruta de entidades no la encontró)"},
	"explain-rrf":                 {"RRF: %s = %.4f", "RRF: %s = %.4f"},
	"explain-analysis":            {"Understood: %s · entities: %s · filters: %s", "Entendido: %s · entidades: %s · filtros: %s"},
	"kind-arc":                    {"an arc (one chunk per session first, the context in session order)", "un arco (primero un fragmento por sesión, el contexto en orden de sesión)"},
	"kind-lookup":                 {"a lookup", "una consulta puntual"},
	"none":                        {"none", "ninguno"},
	"filter-sessions":             {"sessions %s", "sesiones %s"},
	"filter-folders":              {"folders %s", "carpetas %s"},
	"filter-tags":                 {"tags %s", "etiquetas %s"},
	"filter-until":                {"as of session %d", "hasta la sesión %d"},
	"search-until":                {"  (as of session %d: %q)", "  (hasta la sesión %d: «%s»)"},
	"bad-until-session":           {"--until-session %d: write a session number, 1 or more", "--until-session %d: escribe un número de sesión, 1 o más"},
	"compendium-show-needs-name":  {"compendium show needs a name", "compendium show necesita un nombre"},
	"compendium-not-found":        {"no entity is called %q (try oraculo compendium list)", "ninguna entidad se llama %q (prueba oraculo compendium list)"},
	"compendium-verb":             {"unknown compendium command %q (list or show NAME)", "orden de compendium desconocida %q (list o show NOMBRE)"},
	"compendium-summary":          {"Compendium: %d entities (oraculo compendium lists them)", "Compendio: %d entidades (oraculo compendium las lista)"},
	"compendium-empty":            {"The compendium is empty.", "El compendio está vacío."},
	"timeline-needs-name":         {"timeline needs a name (or an alias) of the compendium", "timeline necesita un nombre (o un alias) del compendio"},
	"timeline-not-found":          {"no entity is called %q (try oraculo compendium list)", "ninguna entidad se llama %q (prueba oraculo compendium list)"},
	"timeline-head":               {"%s: %d sessions, from session %d to %d", "%s: %d sesiones, de la sesión %d a la %d"},
	"timeline-no-sessions":        {"%s: no session names it", "%s: ninguna sesión lo nombra"},
	"timeline-session":            {"session %d", "sesión %d"},
	"timeline-absent":             {"absent for %d sessions", "ausente %d sesiones"},
	"timeline-notes":              {"Other notes:", "Otras notas:"},
	"recap-one-session":           {"recap takes at most one session number", "recap admite como mucho un número de sesión"},
	"recap-bad-session":           {"%q is not a session number (1, 2, ...)", "%q no es un número de sesión (1, 2, ...)"},
	"recap-no-sessions":           {"the notes hold no session (session notes are found by their names and headings: \"Sesión 12\")", "las notas no tienen ninguna sesión (las notas de sesión se reconocen por su nombre y sus encabezados: \"Sesión 12\")"},
	"recap-no-session":            {"the notes hold no session %d", "las notas no tienen sesión %d"},
	"recap-title":                 {"Session %d", "Sesión %d"},
	"recap-events":                {"What happened:", "Qué pasó:"},
	"recap-none":                  {"(no sentence of the story names anyone)", "(ninguna frase de la historia nombra a nadie)"},
	"recap-open":                  {"Left open:", "Quedó abierto:"},
	"threads-no-args":             {"threads takes no arguments (--quiet N sets the sessions)", "threads no admite argumentos (--quiet N fija las sesiones)"},
	"threads-bad-quiet":           {"--quiet must be 1 or more, got %d", "--quiet debe ser 1 o más, no %d"},
	"threads-title":               {"Open threads (last session %d; entities absent from the last %d sessions):", "Hilos abiertos (última sesión %d; entidades ausentes de las %d últimas sesiones):"},
	"threads-none":                {"No open threads.", "No hay hilos abiertos."},
	"threads-col-title":           {"thread", "hilo"},
	"threads-col-open":            {"sessions open", "sesiones abierto"},
	"threads-col-mentions":        {"mentions", "menciones"},
	"threads-col-introduced":      {"introduced", "aparece en"},
	"threads-col-last":            {"last mentioned", "última mención"},
	"thread-task":                 {"task", "tarea"},
	"thread-quest":                {"quest", "misión"},
	"thread-entity":               {"entity", "entidad"},
	"ingest-waiting":              {"another ingest of this index is running, %s: waiting for it to end (--no-wait fails instead)", "otra ingesta de este índice está en marcha, %s: espero a que termine (--no-wait falla en su lugar)"},
	"link-key-ephemeral":          {"the index is read-only and its folder cannot keep a link key (%v): links to passages signed by this server stop working when it stops", "el índice es de solo lectura y su carpeta no puede guardar una clave de enlaces (%v): los enlaces a pasajes que firme este servidor dejan de funcionar cuando se detenga"},
	"col-name":                    {"name", "nombre"},
	"col-kind":                    {"kind", "tipo"},
	"col-chunks":                  {"chunks", "fragmentos"},
	"col-aliases":                 {"aliases", "alias"},
	"col-note":                    {"note", "nota"},
	"col-source":                  {"source", "fuente"},
	"warning":                     {"warning: %s", "aviso: %s"},
	"embed-summary":               {"Dense path (%s): %d chunks embedded, %d without a vector, %d stale vectors pruned", "Vía densa (%s): %d fragmentos vectorizados, %d sin vector, %d vectores obsoletos eliminados"},
	"interrupted":                 {"interrupted: what was written is consistent; run the same command again to complete it", "interrumpido: lo escrito es coherente; vuelve a lanzar la misma orden para completarlo"},
	"ingest-done":                 {"Ingest finished in %s: %d files (%d indexed, %d unchanged, %d removed), %s of notes", "Ingesta terminada en %s: %d archivos (%d indexados, %d sin cambios, %d eliminados), %s de notas"},
	"no-notes-found":              {"No notes found (Markdown or text files) in the folders given: check the path.", "No hay notas (archivos Markdown o de texto) en las carpetas indicadas: revisa la ruta."},
	"index-summary":               {"Index %s: %d documents, %d sessions, %d chunks, %d paragraphs, %s", "Índice %s: %d documentos, %d sesiones, %d fragmentos, %d párrafos, %s"},
	"size-on-disk":                {"%s on disk", "%s en disco"},
	"size-in-cluster":             {"in a Weaviate cluster (size not measured)", "en un clúster de Weaviate (tamaño sin medir)"},
	"settings":                    {"Settings: language %s, at most %d words a chunk, overlap %d", "Ajustes: idioma %s, como mucho %d palabras por fragmento, solape %d"},
	"skipped":                     {"Skipped (%d):", "Omitidos (%d):"},
	"repaired":                    {"Repaired (%d):", "Reparados (%d):"},
	"warnings":                    {"Warnings (%d):", "Avisos (%d):"},
	"and-more":                    {"  … and %d more", "  … y %d más"},
	"reason:binary":               {"binary file", "archivo binario"},
	"reason:too-large":            {"too large", "demasiado grande"},
	"reason:unreadable":           {"cannot be read", "no se puede leer"},
	"reason:unsupported-type":     {"not a type Oráculo reads (.md, .markdown, .txt, .pdf, .docx, .odt, .html, .epub)", "no es un tipo que Oráculo lea (.md, .markdown, .txt, .pdf, .docx, .odt, .html, .epub)"},
	"reason:damaged":              {"damaged or not what its name says", "dañado o no es lo que dice su nombre"},
	"reason:no-text":              {"no text to read (a scan?)", "sin texto que leer (¿un escaneo?)"},
	"reason:encrypted":            {"encrypted (it needs a password)", "cifrado (necesita contraseña)"},
	"reason:empty":                {"empty", "vacío"},
	"reason:not-a-regular-file":   {"not a regular file (a device, a pipe, a socket or a link to one)", "no es un archivo normal (un dispositivo, una tubería, un socket o un enlace a uno)"},
	"other-types":                 {"  %d files of other types ignored (%s)", "  %d archivos de otros tipos ignorados (%s)"},
	"no-hits":                     {"No chunk matches.", "Ningún fragmento coincide."},
	"question":                    {"? %s", "? %s"},
	"col-rank":                    {"#", "#"},
	"col-score":                   {"score", "punt."},
	"col-label":                   {"label", "etiqueta"},
	"col-file":                    {"file", "archivo"},
	"col-paths":                   {"paths", "vías"},
	"col-session":                 {"session", "sesión"},
	"col-words":                   {"words", "palabras"},
	"col-headings":                {"headings", "encabezados"},
	"col-first":                   {"first line", "primera línea"},
	"stats-docs":                  {"documents", "documentos"},
	"stats-sessions":              {"sessions", "sesiones"},
	"stats-chunks":                {"chunks", "fragmentos"},
	"stats-children":              {"paragraphs (children)", "párrafos (hijos)"},
	"stats-size":                  {"index size", "tamaño del índice"},
	"stats-path":                  {"index file", "archivo del índice"},
	"stats-lang":                  {"notes language", "idioma de las notas"},
	"lang-notes":                  {"%s (notes: %s)", "%s (notas: %s)"},
	"doctor-langs":                {"notes' language", "idioma de las notas"},
	"doctor-langs-auto":           {"recognised in each note: %s", "reconocido en cada nota: %s"},
	"doctor-langs-forced":         {"every note analysed as %q (--lang): %s", "todas las notas analizadas como %q (--lang): %s"},
	"stats-cap":                   {"chunk cap / overlap (words)", "tope / solape (palabras)"},
	"stats-schema":                {"schema version", "versión del esquema"},
	"stats-entities":              {"compendium entities", "entidades del compendio"},
	"stats-paths":                 {"retrieval paths", "vías de búsqueda"},
	"stats-dense":                 {"dense path (%s)", "vía densa (%s)"},
	"stats-dense-exact":           {"%d vectors, scanned exactly", "%d vectores, recorridos uno a uno"},
	"stats-dense-graph":           {"%d vectors, HNSW graph", "%d vectores, grafo HNSW"},
	"stats-vectors":               {"vectors (%s)", "vectores (%s)"},
	"stats-dm-notes":              {"DM-only notes", "notas solo para el DM"},
	"stats-dm-folder":             {"%d by secret folder", "%d por carpeta secreta"},
	"stats-dm-link":               {"%d by a link into a secret folder", "%d por enlace a una carpeta secreta"},
	"stats-dm-front-matter":       {"%d by front matter", "%d por el front matter"},
	"stats-dm-tag":                {"%d by tag", "%d por etiqueta"},
	"stats-dm-unclear":            {"%d by a visibility setting not understood (see the ingest warnings)", "%d por un ajuste de visibilidad no entendido (ver los avisos de ingest)"},
	"stats-dm-unknown":            {"%d not decided yet", "%d aún sin decidir"},
	"stats-secret-folders":        {"secret folders", "carpetas secretas"},
	"stats-players-compendium":    {"players' compendium", "compendio de los jugadores"},
	"stats-withheld":              {"withheld until the next complete ingest", "retenido hasta el próximo ingest completo"},
	"no-chunks":                   {"No chunks.", "No hay fragmentos."},
	"bad-k":                       {"--k must be at least 1", "--k debe ser al menos 1"},
	"search-sessions":             {"  (only sessions %s: %q)", "  (solo las sesiones %s: «%s»)"},
	"search-unfiltered":           {"  (nothing in %q matches: every note searched)", "  (nada en «%s» coincide: busqué en todas las notas)"},
	"bad-session":                 {"--session %q: write a session number, a range or a list (12, 3-5, 3,5,7-9)", "--session %q: escribe un número de sesión, un rango o una lista (12, 3-5, 3,5,7-9)"},
	"eval-compare-args":           {"--compare needs two reports: oraculo eval --compare A.json B.json", "--compare necesita dos informes: oraculo eval --compare A.json B.json"},
	"eval-extra-args":             {"unexpected arguments", "argumentos inesperados"},
	"eval-needs-golden":           {"eval needs --golden FILE (or --from REPORT.json, or --compare A.json B.json)", "eval necesita --golden ARCHIVO (o --from INFORME.json, o --compare A.json B.json)"},
	"eval-report-written":         {"report written to %s", "informe escrito en %s"},
	"eval-header":                 {"Golden set %s: %d questions (%d answerable; %s), depth %d", "Conjunto de referencia %s: %d preguntas (%d con respuesta; %s), profundidad %d"},
	"eval-config":                 {"configuration", "configuración"},
	"eval-mode":                   {"count", "cuenta"},
	"eval-mode-chunk":             {"per chunk", "por fragmento"},
	"eval-mode-note":              {"one slot per note", "una por nota"},
	"eval-by-kind":                {"By kind of question (%s, per chunk):", "Por tipo de pregunta (%s, por fragmento):"},
	"eval-kind":                   {"kind", "tipo"},
	"eval-latency":                {"Latency per stage:", "Latencia por etapa:"},
	"eval-stage":                  {"stage", "etapa"},
	"eval-median":                 {"median", "mediana"},
	"eval-misses":                 {"Misses (%s): %d questions not answered by the first chunk; %d came back outside the top 8, %d not within the top %d. Worst first, with the rank per path:", "Fallos (%s): %d preguntas cuyo primer fragmento no es la fuente; %d volvieron fuera de los 8 primeros, %d ni entre los %d primeros. Los peores primero, con el puesto en cada vía:"},
	"eval-ann":                    {"Approximate vs exact vector search (%s): recall@%d %.3f over %d questions (%s, %d vectors; %s).", "Búsqueda vectorial aproximada frente a exacta (%s): recall@%d %.3f en %d preguntas (%s, %d vectores; %s)."},
	"eval-ann-10":                 {"Dense recall@%d of the approximate index against an exact scan: %.3f.", "Recall@%d denso del índice aproximado frente a un recorrido exacto: %.3f."},
	"eval-ann-in-use":             {"search uses the approximate index", "la búsqueda usa el índice aproximado"},
	"eval-ann-not-in-use":         {"search scans exactly at this size", "a este tamaño la búsqueda es exacta"},
	"eval-rank":                   {"rank", "puesto"},
	"eval-diagnosis":              {"Diagnosis:", "Diagnóstico:"},
	"eval-compare-header":         {"A = %s, B = %s", "A = %s, B = %s"},
	"eval-metric":                 {"metric", "métrica"},
	"eval-better":                 {"Better in B (%d):", "Mejor en B (%d):"},
	"eval-worse":                  {"Worse in B (%d):", "Peor en B (%d):"},
	"eval-answers":                {"Answers (%s):", "Respuestas (%s):"},
	"eval-answers-rerank":         {"  Recall@8 fused %.3f → after reranking %.3f (%d of %d questions reranked; fallbacks below)", "  Recall@8 de la fusión %.3f → tras reordenar %.3f (%d de %d preguntas reordenadas; motivos de vuelta atrás debajo)"},
	"eval-answers-abstain":        {"  abstention accuracy %.3f: abstained on %d of %d unanswerable, and on %d of %d answerable", "  acierto al abstenerse %.3f: se abstuvo en %d de %d sin respuesta, y en %d de %d con respuesta"},
	"eval-answers-cite":           {"  citation validity %.3f (%d of %d citations name delivered evidence); answers with a valid citation %.3f", "  validez de las citas %.3f (%d de %d citas nombran evidencia entregada); respuestas con una cita válida %.3f"},
	"bad-role":                    {"--as must be dm or player, not %q", "--as debe ser dm o player, no %q"},
	"mcp-args":                    {"mcp takes no arguments, only flags: %q", "mcp no acepta argumentos, solo opciones: %q"},
	"config-key-unknown":          {"%s: %q is no option of any command", "%s: «%s» no es una opción de ninguna orden"},
	"config-key-as":               {"%s: \"as\" cannot be set in a config file: give --as on the command line", "%s: «as» no puede fijarse en un archivo de configuración: usa --as en la línea de órdenes"},
	"config-key-here":             {"%s: %q is read before the file: give it on the command line (left out)", "%s: «%s» se lee antes que el archivo: dalo en la línea de órdenes (ignorada)"},
	"did-you-mean":                {"did you mean %s?", "¿querías decir %s?"},
	"see-help":                    {"oraculo %s -h lists its options", "oraculo %s -h muestra sus opciones"},
	"doctor-args":                 {"doctor takes no arguments, only flags: %q", "doctor no acepta argumentos, solo opciones: %q"},
	"doctor-index":                {"index", "índice"},
	"doctor-backend":              {"backend", "backend"},
	"doctor-weaviate-ok":          {"Weaviate %s, %d of %d nodes healthy (%v)", "Weaviate %s, %d de %d nodos sanos (%v)"},
	"doctor-index-ok":             {"%s: %d notes, %d chunks; paths %s", "%s: %d notas, %d fragmentos; caminos %s"},
	"doctor-embedder":             {"embeddings", "vectores"},
	"doctor-embedder-off":         {"off (the dense path is off; oraculo ingest --embedder ollama turns it on)", "apagados (sin camino denso; oraculo ingest --embedder ollama lo enciende)"},
	"doctor-embedder-empty":       {"%s answered with no vector", "%s respondió sin vector"},
	"doctor-embedder-ok":          {"%s answers: %d dimensions in %v", "%s responde: %d dimensiones en %v"},
	"doctor-chat":                 {"chat model", "modelo de chat"},
	"doctor-chat-off":             {"none (answers are the notes' own sentences; --chat ollama uses a model)", "ninguno (las respuestas son frases de las notas; --chat ollama usa un modelo)"},
	"doctor-chat-ok":              {"%s answers in %v: %q", "%s responde en %v: «%s»"},
	"doctor-ollama-down":          {"no Ollama at %s (%v): start it with \"ollama serve\", or point OLLAMA_HOST at it", "no hay Ollama en %s (%v): arráncalo con «ollama serve» o apunta OLLAMA_HOST a él"},
	"doctor-ollama-tags":          {"Ollama at %s did not list its models (%s)", "Ollama en %s no dio su lista de modelos (%s)"},
	"doctor-ollama-missing":       {"model %q is not pulled on %s (it has: %s); run: ollama pull %s", "el modelo %q no está descargado en %s (tiene: %s); ejecuta: ollama pull %s"},
	"serve-args":                  {"serve takes no arguments, only flags: %q", "serve no acepta argumentos, solo opciones: %q"},
	"serve-needs-tokens":          {"%s is not a loopback address: serving other machines needs tokens (oraculo token add NAME --role player, then --tokens FILE or $ORACULO_TOKENS)", "%s no es una dirección de loopback: servir a otras máquinas necesita tokens (oraculo token add NOMBRE --role player, y luego --tokens ARCHIVO o $ORACULO_TOKENS)"},
	"serve-url":                   {"Oráculo serves %s at %s", "Oráculo sirve %s en %s"},
	"serve-local":                 {"No tokens file: serving the local user only (loopback, no authentication, role %s).", "Sin archivo de tokens: solo para el usuario local (loopback, sin autenticación, rol %s)."},
	"serve-auth":                  {"Authentication: %d tokens from %s (re-read when it changes).", "Autenticación: %d tokens de %s (se vuelve a leer cuando cambia)."},
	"serve-stopping":              {"Stopping: finishing the requests in flight (at most %s)...", "Deteniendo: terminando las peticiones en curso (como mucho %s)..."},
	"serve-stopped":               {"Stopped.", "Detenido."},
	"memory-usage":                {"memory needs a command: add --scope S --key K --value V [--source FILE|--stated] [--verified], list [--scope S] [--all] [--json], show ID, verify ID, supersede ID --value V [--source FILE] [--verified], or forget ID", "memory necesita una orden: add --scope S --key K --value V [--source ARCHIVO|--stated] [--verified], list [--scope S] [--all] [--json], show ID, verify ID, supersede ID --value V [--source ARCHIVO] [--verified] o forget ID"},
	"memory-needs-id":             {"memory %s takes exactly one ID (add and list take none)", "memory %s lleva exactamente un ID (add y list no llevan ninguno)"},
	"ask-memory":                  {"(memory)", "(memoria)"},
	"ask-memory-hypothesis":       {"a hypothesis", "una hipótesis"},
	"ask-memory-stale":            {"possibly stale: its note changed", "posiblemente caducada: su nota cambió"},
	"ask-memory-unconfirmed":      {"Unconfirmed memory, not a source: %s: %s (%s, %s)", "Memoria sin confirmar, no es una fuente: %s: %s (%s, %s)"},
	"chat-memory-no-scope":        {"a player without a name has no memory of their own: run the chat with --as player:NAME", "un jugador sin nombre no tiene memoria propia: abre el chat con --as player:NOMBRE"},
	"chat-remember-propose":       {"Proposed memory entry (a hypothesis, not verified): scope %s, key %q, value %q. Save it? [y/N]", "Propuesta de memoria (una hipótesis, no verificada): ámbito %s, clave «%s», valor «%s». ¿La guardo? [s/N]"},
	"chat-remember-no":            {"Not saved.", "No la guardo."},
	"chat-remember-saved":         {"Saved %s (%s, %s) as a hypothesis: the DM verifies it with oraculo memory verify.", "Guardada %s (%s, %s) como hipótesis: el DM la verifica con oraculo memory verify."},
	"chat-forget-none":            {"No memory entry you may forget matches %q (see oraculo memory list).", "Ninguna entrada de memoria que puedas olvidar coincide con «%s» (mira oraculo memory list)."},
	"chat-forget-which":           {"Which entry do I forget for good? Write its number or id (anything else: none).", "¿Qué entrada olvido para siempre? Escribe su número o su id (cualquier otra cosa: ninguna)."},
	"chat-forget-kept":            {"Nothing forgotten.", "No olvido nada."},
	"memory-forbidden":            {"not allowed: %s", "no permitido: %s"},
	"memory-stated-source":        {"--stated excludes --source and --chunk", "--stated excluye --source y --chunk"},
	"memory-stale":                {"possibly stale: its note changed", "posiblemente caducada: su nota cambió"},
	"memory-source-not-indexed":   {"%q is not a note of the index (ingest it first)", "%q no es una nota del índice (ingiérela antes)"},
	"memory-added":                {"%s added: %s, %s (%s)", "%s añadida: %s, %s (%s)"},
	"memory-verified":             {"%s verified", "%s verificada"},
	"memory-superseded":           {"%s added, superseding %s", "%s añadida, en lugar de %s"},
	"memory-forgotten":            {"%s forgotten", "%s olvidada"},
	"memory-none":                 {"no memory entries", "no hay entradas de memoria"},
	"memory-inactive":             {"superseded", "sustituida"},
	"memory-supersedes":           {"supersedes %s", "sustituye a %s"},
	"token-usage":                 {"token needs a command: add NAME --role player|dm, list, remove NAME, or rotate-links", "token necesita una orden: add NOMBRE --role player|dm, list, remove NOMBRE o rotate-links"},
	"token-needs-name":            {"token %s needs exactly one NAME", "token %s necesita exactamente un NOMBRE"},
	"token-bad-role":              {"--role must be player or dm, not %q", "--role debe ser player o dm, no %q"},
	"token-added":                 {"Token for %q (%s) added to %s. It is shown only this once: give it to its holder now (Authorization: Bearer TOKEN).", "Token de %q (%s) añadido a %s. Solo se muestra esta vez: dáselo ahora a quien lo vaya a usar (Authorization: Bearer TOKEN)."},
	"token-removed":               {"Token %q removed from %s.", "Token %q eliminado de %s."},
	"token-none":                  {"No tokens in %s.", "No hay tokens en %s."},
	"col-role":                    {"role", "rol"},
	"bad-answer-lang":             {"--lang must be es or en, not %q", "--lang debe ser es o en, no %q"},
	"no-chat-model":               {"no chat model configured (--chat ollama|openai or $ORACULO_CHAT): answers are extractive (the notes' own sentences) and candidates keep the fused order", "no hay modelo de chat configurado (--chat ollama|openai o $ORACULO_CHAT): las respuestas son extractivas (frases de las propias notas) y los candidatos mantienen el orden de la fusión"},
	"ask-no-question":             {"ask needs a question", "ask necesita una pregunta"},
	"ask-query":                   {"(searched as: %s)", "(búsqueda hecha con: %s)"},
	"ask-fallback-timeout":        {"(The model did not answer in time: the answer extracted from the notes follows.)", "(El modelo no respondió a tiempo: sigue la respuesta extraída de las notas.)"},
	"ask-fallback-error":          {"(The model failed: the answer extracted from the notes follows.)", "(El modelo falló: sigue la respuesta extraída de las notas.)"},
	"ask-removed":                 {"Removed citations (not in the evidence delivered): %s", "Citas eliminadas (no estaban en la evidencia entregada): %s"},
	"ask-unsupported":             {"%d of %d sentences are supported by the notes; the others are marked %s.", "%d de %d frases tienen fuente en las notas; las demás van marcadas %s."},
	"ask-sources":                 {"Sources:", "Fuentes:"},
	"ask-thinking":                {"(the model is thinking…)", "(el modelo está pensando…)"},
	"ask-summary":                 {"(summary)", "(resumen)"},
	"ask-footer":                  {"— %s · reranker %s · %d full + %d summaries · %.1f s", "— %s · reranker %s · %d completos + %d resúmenes · %.1f s"},
	"mode:generated":              {"generated", "generada"},
	"mode:extractive":             {"extractive", "extractiva"},
	"grounding:direct":            {"answered by the notes", "respondida por las notas"},
	"grounding:closest":           {"only the closest the notes hold", "solo lo más cercano que tienen las notas"},
	"grounding:none":              {"the notes do not say", "las notas no lo dicen"},
	"grounding:partial":           {"%d of %d sentences supported by the notes", "%d de %d frases con fuente en las notas"},
	"chat-hello":                  {"Ask about your notes. /open N shows source N, /new starts over, /exit leaves.", "Pregunta sobre tus notas. /abrir N muestra la fuente N, /nuevo empieza de cero, /salir termina."},
	"chat-new":                    {"(new conversation)", "(conversación nueva)"},
	"chat-open-usage":             {"/open N, with N between 1 and %d", "/abrir N, con N entre 1 y %d"},
	"chat-help":                   {"commands: /open N, /new, /exit", "órdenes: /abrir N, /nuevo, /salir"},
	"show-needs-id":               {"show needs a chunk id (from search or from an answer's sources)", "show necesita el id de un fragmento (de search o de las fuentes de una respuesta)"},
	"stats-annotations":           {"annotations (%s)", "anotaciones (%s)"},
	"stage:annotate":              {"annotating", "anotando"},
	"bench-args":                  {"bench takes no arguments, only flags: %q", "bench no acepta argumentos, solo opciones: %q"},
	"bench-bad-n":                 {"--n must be 0 (the default) or more", "--n debe ser 0 (por defecto) o más"},
	"bench-searching":             {"searching", "buscando"},
	"bench-answering":             {"answering", "respondiendo"},
	"bench-index":                 {"Index %s: %d chunks in %d documents, %s; paths %s", "Índice %s: %d fragmentos en %d documentos, %s; vías %s"},
	"bench-questions-file":        {"Questions: %d from %s, %d run, as %s", "Preguntas: %d de %s, %d lanzadas, como %s"},
	"bench-questions-generated":   {"Questions: %d made from the index (seed %d, %d distinct), as %s", "Preguntas: %d hechas con el propio índice (semilla %d, %d distintas), como %s"},
	"bench-machine":               {"Machine: %s/%s, %d CPUs, %s", "Máquina: %s/%s, %d CPU, %s"},
	"bench-search":                {"Search (k %d), one question after another:", "Búsqueda (k %d), una pregunta tras otra:"},
	"bench-ask":                   {"Extractive answers (no chat model), after the searches:", "Respuestas extractivas (sin modelo de chat), tras las búsquedas:"},
	"bench-rate":                  {"  %d queries in %.2f s: %.1f queries/s after the first; %d found nothing", "  %d consultas en %.2f s: %.1f consultas/s tras la primera; %d sin resultados"},
	"bench-first-cold":            {"  first query (cold: it loads what the next ones reuse): %.2f ms; the others, per stage in ms:", "  primera consulta (en frío: carga lo que las siguientes reutilizan): %.2f ms; las demás, por etapa en ms:"},
	"bench-first":                 {"  first query: %.2f ms; the others, per stage in ms:", "  primera consulta: %.2f ms; las demás, por etapa en ms:"},
	"bench-first-col":             {"first", "primera"},
	"bench-rss":                   {"Peak RSS while the questions ran: %s", "Pico de memoria residente (RSS) durante las preguntas: %s"},
	"bench-na":                    {"n/a", "n/d"},
	"annotate-summary":            {"Annotations (%s): %d written, %d already cached, %d pending, %d failed", "Anotaciones (%s): %d escritas, %d ya en caché, %d pendientes, %d fallidas"},
	"check-none":                  {"No contradictions found in the notes.", "No se han encontrado contradicciones en las notas."},
	"check-gone_then_acts":        {"said to be gone, later acting", "dado por muerto o ido, y luego actúa"},
	"check-field":                 {"two values of one field", "dos valores de un mismo campo"},
	"check-field-named":           {"two values of the field %q", "dos valores del campo %q"},
	"check-verdict-contradiction": {"contradiction (chat model)", "contradicción (modelo de chat)"},
	"check-verdict-consistent":    {"consistent (chat model)", "coherente (modelo de chat)"},
	"check-verdict-unjudged":      {"not judged", "sin juzgar"},
	// The terminal chat (issue 15, item 4).
	"chat-keys":      {"Arrow-up recalls a question; Ctrl-C stops an answer; Ctrl-D leaves.", "La flecha arriba recupera una pregunta; Ctrl-C detiene una respuesta; Ctrl-D termina."},
	"chat-cancelled": {"(cancelled)", "(cancelada)"},

	// Documents besides notes (issue 16).
	"pdf-pages-per-s":   {"PDF pages/s", "páginas PDF/s"},
	"documents-summary": {"Documents read: %s", "Documentos leídos: %s"},
	"document-pages":    {"%d %s (%d pages)", "%d %s (%d páginas)"},
	"document-count":    {"%d %s", "%d %s"},
	// Watching the folders (issue 16, item 2).
	"watch-watching":      {"Watching %s for changes (Ctrl-C stops).", "Vigilando los cambios en %s (Ctrl-C para)."},
	"watch-updated":       {"%s index updated: %d indexed, %d removed; %d notes in the index (%s)", "%s índice al día: %d indexados, %d eliminados; %d notas en el índice (%s)"},
	"watch-skipped":       {"skipped %s: %s", "omitido %s: %s"},
	"watch-update-failed": {"%s the index could not be updated (tried again shortly): %s", "%s no se pudo poner el índice al día (se reintenta en breve): %s"},
	"watch-polling":       {"warning: the system's limit on watched folders was reached (%s); rescanning the folders every %s instead (raise fs.inotify.max_user_watches to watch them)", "aviso: se alcanzó el límite del sistema de carpetas vigiladas (%s); releo las carpetas cada %s en su lugar (sube fs.inotify.max_user_watches para vigilarlas)"},
	"watch-stopped":       {"Stopped watching.", "Vigilancia detenida."},
	"watch-bad-debounce":  {"--watch-debounce must be more than 0, got %s", "--watch-debounce debe ser mayor que 0, no %s"},
	"watch-no-roots":      {"--watch: the index names no folder to watch: run oraculo ingest DIR first", "--watch: el índice no nombra ninguna carpeta que vigilar: ejecuta antes oraculo ingest CARPETA"},
	"watch-serving":       {"Watching %s: changes reach the next question.", "Vigilando %s: los cambios llegan a la siguiente pregunta."},
	// An Obsidian vault's own settings (issue 30, item 4).
	"obsidian-left-out":         {"Left out by the vaults' Obsidian settings, %d notes: %s", "Omitidas por la configuración de Obsidian de las bóvedas, %d notas: %s"},
	"reason:obsidian-template":  {"templates", "plantillas"},
	"reason:obsidian-excluded":  {"excluded by Obsidian", "excluidas por Obsidian"},
	"include:obsidian-template": {"--include-templates indexes the templates", "--include-templates indexa las plantillas"},
	"include:obsidian-excluded": {"--include-excluded indexes Obsidian's excluded files", "--include-excluded indexa los archivos excluidos en Obsidian"},
	"obsidian-settings-warning": {"an Obsidian setting not applied: %s", "un ajuste de Obsidian sin aplicar: %s"},
	// A first hour with no surprises (issue 30).
	"quoted":       {"%q", "«%s»"},
	"see-commands": {"oraculo help lists the commands", "oraculo help muestra las órdenes"},
	"unknown-verb": {"%s has no command %q; %s", "%s no tiene la orden «%s»; %s"},
	// The rate of an ingest's stages that count items, not bytes.
	"rate:embed":    {"chunks/s", "fragmentos/s"},
	"rate:annotate": {"chunks/s", "fragmentos/s"},
	"rate:graph":    {"vectors/s", "vectores/s"},
	"command-first": {"%s comes before any command: the command comes first, its options after it (oraculo COMMAND [options])", "%s va antes de ninguna orden: primero va la orden y después sus opciones (oraculo ORDEN [opciones])"},
	// serve's limits, wrong (were in English only).
	"limit-env-number":    {"$%s=%q: want a whole number", "$%s=«%s»: debe ser un número entero"},
	"limit-at-least-1":    {"--%s %d: want at least 1", "--%s %d: debe ser al menos 1"},
	"limit-env-duration":  {"$ORACULO_QUEUE_WAIT=%q: want a duration such as 500ms", "$ORACULO_QUEUE_WAIT=«%s»: debe ser una duración como 500ms"},
	"limit-wait-positive": {"--queue-wait %v: want a duration above zero", "--queue-wait %v: debe ser una duración mayor que cero"},
	// The chat model's tokens of an answer (issue 30, item 3).
	"ask-usage":      {" · %d model tokens (%s)", " · %d tokens del modelo (%s)"},
	"usage:model":    {"counted by the model server", "contados por el servidor del modelo"},
	"usage:estimate": {"estimated", "estimados"},
}

// msg formats a catalog message in the interface language.
func msg(id string, args ...any) string {
	m, ok := catalog[id]
	if !ok {
		return id
	}
	f := m[0]
	if lang == "es" {
		f = m[1]
	}
	if len(args) == 0 {
		return f
	}
	return singular(fmt.Sprintf(f, args...))
}

// singulars are the plural nouns (and participles) messages count, with
// their singular: "1 files" reads "1 file", "1 sesiones" "1 sesión".
var singulars = map[string]string{
	"files": "file", "chunks": "chunk", "notes": "note", "documents": "document", "sessions": "session",
	"paragraphs": "paragraph", "vectors": "vector", "entities": "entity", "questions": "question",
	"archivos": "archivo", "fragmentos": "fragmento", "notas": "nota", "documentos": "documento",
	"sesiones": "sesión", "párrafos": "párrafo", "vectores": "vector", "entidades": "entidad",
	"preguntas": "pregunta", "indexados": "indexado", "eliminados": "eliminado", "vectorizados": "vectorizado",
	"obsoletos": "obsoleto", "leídos": "leído", "pages": "page", "páginas": "página",
}

// countOne finds a count of one before a word.
var countOne = regexp.MustCompile(`(^|[^\p{L}\p{N}.,])1 ([\p{L}]+)((?: [\p{L}]+){0,2})`)

// singular puts the words after a count of one in the singular.
func singular(s string) string {
	if !strings.Contains(s, "1 ") {
		return s
	}
	return countOne.ReplaceAllStringFunc(s, func(m string) string {
		sub := countOne.FindStringSubmatch(m)
		noun, rest := sub[2], sub[3]
		one, ok := singulars[noun]
		if !ok {
			return m
		}
		// The words that agree with it: "1 vectores obsoletos eliminados".
		words := strings.Fields(rest)
		for i, w := range words {
			adj, ok := singulars[w]
			if !ok {
				break
			}
			words[i] = adj
		}
		out := sub[1] + "1 " + one
		for _, w := range words {
			out += " " + w
		}
		return out
	})
}

// engineTexts translate the engine's own (English) warnings and reranker
// fallback reasons that ask and chat show, when the interface is Spanish;
// anything else passes unchanged.
// They are compiled at the first Spanish error, not at every start.
var engineTexts = sync.OnceValue(func() []engineTextRule { return compileEngineTexts(engineTextRules) })

// engineTextRule is one engine text and its Spanish.
type engineTextRule struct {
	re *regexp.Regexp
	es string
}

// compileEngineTexts compiles the patterns of rules.
func compileEngineTexts(rules [][2]string) []engineTextRule {
	out := make([]engineTextRule, len(rules))
	for i, r := range rules {
		out[i] = engineTextRule{regexp.MustCompile(r[0]), r[1]}
	}
	return out
}

// engineTextRules are the patterns of engineTexts and their Spanish.
var engineTextRules = [][2]string{
	{`^the chat model failed \((.*)\); answering from the notes' own sentences$`, "el modelo de chat falló ($1); respondo con frases de las propias notas"},
	{`^the chat model did not answer in time \((.*)\); answering from the notes' own sentences$`, "el modelo de chat no respondió a tiempo ($1); respondo con frases de las propias notas"},
	{`^no (chat )?model$`, "no hay modelo de chat"},
	{`^the index ("[^"]*") is read-only: it is on a read-only file system$`, "el índice $1 es de solo lectura: está en un sistema de archivos de solo lectura"},
	{`^the index ("[^"]*") is read-only: opened read-only$`, "el índice $1 es de solo lectura: se abrió solo para leer"},
	{`^the index ("[^"]*") is read-only: cannot write (.*)$`, "el índice $1 es de solo lectura: no se puede escribir $2"},
	{`^another ingest of this index is running: ("[^"]*"): pid (\d+) \((.*)\) since (.*) holds it$`, "otra ingesta de este índice está en curso: $1: la lleva el proceso $2 ($3) desde $4"},
	{`^another ingest of this index is running: ("[^"]*"): another process holds it$`, "otra ingesta de este índice está en curso: $1: la lleva otro proceso"},
	// Errors the engine and the index give most often.
	{`^index ("[^"]*") does not exist: run ` + "`oraculo ingest`" + ` first: the index has no notes yet$`, "el índice $1 no existe: ejecuta antes `oraculo ingest`: el índice aún no tiene notas"},
	{`^reading notes folder ("[^"]*"): stat [^:]*: no such file or directory$`, "no encuentro la carpeta de notas $1"},
	{`^reading notes folder ("[^"]*"): not a folder$`, "$1 no es una carpeta: ingest lee carpetas de notas"},
	{`^reading notes folder ("[^"]*"): (.*)$`, "leyendo la carpeta de notas $1: $2"},
	{`^no such chunk: (.*)$`, "no hay ningún fragmento $1"},
	{`^no such note: (.*)$`, "no hay ninguna nota $1"},
	{`^no such note$`, "no hay tal nota"},
	{`^unknown retrieval path: ("[^"]*") \(known: (.*)\)$`, "vía de búsqueda desconocida: $1 (las hay: $2)"},
	{`^reading tokens file ("[^"]*"): open [^:]*: no such file or directory$`, "no encuentro el archivo de tokens $1"},
	{`^flag provided but not defined: (.*)$`, "opción desconocida: $1"},
	{`^flag needs an argument: (.*)$`, "a la opción $1 le falta su valor"},
	{`^invalid value ("[^"]*") for flag (\S+): (.*)$`, "valor no válido $1 para la opción $2: $3"},
	{`^config file (.*)$`, "archivo de configuración $1"},
	{`^analysis: unsupported language ("[^"]*") \(want "es" or "en"\)$`, "idioma no admitido $1: es o en"},
	{`^analysis: unsupported language ("[^"]*") \(want "es" or "en"\), or "auto" to recognise each note's language$`, "idioma no admitido $1: es o en, o auto para reconocer el de cada nota"},
	{`^unknown chat provider ("[^"]*") \(ollama, openai or none\)$`, "proveedor de chat desconocido $1 (ollama, openai o none)"},
	{`^unknown embedder ("[^"]*") \(ollama, openai, hashing or none\)$`, "proveedor de embeddings desconocido $1 (ollama, openai, hashing o none)"},
	{`^unknown reranker ("[^"]*") \(auto, llm, cross or none\)$`, "reordenador desconocido $1 (auto, llm, cross o none)"},
	{`^unknown rerank shape ("[^"]*") \(jina or tei\)$`, "API de reordenación desconocida $1 (jina o tei)"},
	{`^reading golden set: open ([^:]*): no such file or directory$`, "no encuentro el conjunto de referencia $1"},
	{`^listen tcp (\S+): bind: address already in use$`, "la dirección $1 ya está en uso (¿otro oraculo serve?): elige otra con --addr"},
	{`^listen tcp: address (\S+): invalid port$`, "puerto no válido en la dirección $1"},
	{`^listen tcp (\S+): bind: cannot assign requested address$`, "esta máquina no tiene la dirección $1"},
	{`^missing annotations?$`, "faltan anotaciones de algunos candidatos"},
	{`^timeout`, "el modelo no respondió a tiempo"},
	{`^canceled$`, "cancelado"},
	{`^unparseable reply$`, "la respuesta del modelo no era JSON válido"},
	{`^no ids in reply$`, "el modelo no eligió ningún candidato"},
	{`^unknown id (.+)$`, "el modelo nombró un candidato inexistente ($1)"},
	{`^model error: (.*)$`, "error del modelo: $1"},
	{`^nothing in the sessions the question names \((.*)\) matches it: every note was searched$`, "nada en las sesiones que nombra la pregunta ($1) coincide con ella: busqué en todas las notas"},
}

// engineText returns s in the interface language when it is one of the
// engine's known texts, its control characters escaped for the terminal.
func engineText(s string) string {
	s = termrender.EscapeText(s) // errors quote paths, os errors do not
	if lang != "es" {
		return s
	}
	for _, t := range engineTexts() {
		if t.re.MatchString(s) {
			return t.re.ReplaceAllString(s, t.es)
		}
	}
	// The system's own words at the end of an error, whatever came first.
	for en, es := range map[string]string{": no such file or directory": ": no existe", ": permission denied": ": permiso denegado", ": is a directory": ": es una carpeta", ": no space left on device": ": no queda espacio en el disco"} {
		if rest, ok := strings.CutSuffix(s, en); ok {
			return rest + es
		}
	}
	return s
}
