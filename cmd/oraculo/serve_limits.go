package main

import (
	"errors"
	"flag"
	"os"
	"strconv"
	"time"

	"github.com/oraculo/oraculo/server"
)

// limitFlags adds serve's load-shedding flags: how many searches,
// extractive answers and answers from the chat model run at once, and how
// many more may wait, for how long. A flag left unset (on the command line
// and in the config file) takes its variable ($ORACULO_MAX_SEARCH,
// $ORACULO_MAX_ASK, $ORACULO_MAX_MODEL, $ORACULO_QUEUE,
// $ORACULO_QUEUE_WAIT), else the default for this machine's processors.
func limitFlags(fs *flag.FlagSet) func() (server.Limits, error) {
	d := server.DefaultLimits()
	search := fs.Int("max-search", d.Search, "searches running at once (POST /api/search, MCP search); more wait in the queue, then get 503 ($ORACULO_MAX_SEARCH; the processors, at least 2, by default)")
	ask := fs.Int("max-ask", d.Ask, "extractive answers running at once (/api/ask, /v1/chat/completions, MCP ask without the chat model) ($ORACULO_MAX_ASK; the processors, at least 2, by default)")
	model := fs.Int("max-model", d.Model, "answers from the chat model running at once ($ORACULO_MAX_MODEL; four times the processors by default)")
	queue := fs.Int("queue", d.Queue, "requests of each kind that may wait for a slot; 0: none wait ($ORACULO_QUEUE; eight times the processors by default)")
	wait := fs.Duration("queue-wait", d.QueueWait, "longest a request waits in the queue before 503 with Retry-After ($ORACULO_QUEUE_WAIT)")
	return func() (server.Limits, error) {
		set := map[string]bool{}
		fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
		for name, v := range map[string]*int{"max-search": search, "max-ask": ask, "max-model": model, "queue": queue} {
			env := envName(name)
			if s := os.Getenv(env); s != "" && !set[name] {
				n, err := strconv.Atoi(s)
				if err != nil || n < 0 {
					return server.Limits{}, usageError{errors.New(msg("limit-env-number", env, s))}
				}
				*v = n
			}
			if *v < 0 || *v == 0 && name != "queue" {
				return server.Limits{}, usageError{errors.New(msg("limit-at-least-1", name, *v))}
			}
		}
		if s := os.Getenv("ORACULO_QUEUE_WAIT"); s != "" && !set["queue-wait"] {
			d, err := time.ParseDuration(s)
			if err != nil {
				return server.Limits{}, usageError{errors.New(msg("limit-env-duration", s))}
			}
			*wait = d
		}
		if *wait <= 0 {
			return server.Limits{}, usageError{errors.New(msg("limit-wait-positive", *wait))}
		}
		l := server.Limits{Search: *search, Ask: *ask, Model: *model, Queue: *queue, QueueWait: *wait}
		if l.Queue == 0 {
			l.Queue = -1 // none: Limits takes 0 for its default
		}
		return l, nil
	}
}

// envName is the variable of a flag: max-search is ORACULO_MAX_SEARCH.
func envName(flagName string) string {
	b := []byte("ORACULO_" + flagName)
	for i, c := range b {
		switch {
		case c == '-':
			b[i] = '_'
		case c >= 'a' && c <= 'z':
			b[i] = c - 'a' + 'A'
		}
	}
	return string(b)
}

func init() {
	// A config file may set them too (TestConfigKnownFlags checks it).
	for _, f := range []string{"max-search", "max-ask", "max-model", "queue", "queue-wait"} {
		knownFlags[f] = true
	}
	// The flags' Spanish lives here, with them (TestCommandHelp checks it).
	flagUsageES["max-search"] = "búsquedas a la vez (POST /api/search, search de MCP); las demás esperan en la cola y después reciben 503 ($ORACULO_MAX_SEARCH; por defecto los procesadores, al menos 2)"
	flagUsageES["max-ask"] = "respuestas extractivas a la vez (/api/ask, /v1/chat/completions, ask de MCP sin el modelo de chat) ($ORACULO_MAX_ASK; por defecto los procesadores, al menos 2)"
	flagUsageES["max-model"] = "respuestas del modelo de chat a la vez ($ORACULO_MAX_MODEL; por defecto cuatro veces los procesadores)"
	flagUsageES["queue"] = "peticiones de cada clase que pueden esperar turno; 0: ninguna espera ($ORACULO_QUEUE; por defecto ocho veces los procesadores)"
	flagUsageES["queue-wait"] = "tiempo máximo que una petición espera en la cola antes del 503 con Retry-After ($ORACULO_QUEUE_WAIT)"
}
