package story

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/oraculo/oraculo/chat"
	"github.com/oraculo/oraculo/chat/chattest"
	"github.com/oraculo/oraculo/store"
)

// fakeSource is a CheckSource in memory.
type fakeSource struct {
	chunks []store.Chunk
	ents   map[string][]store.Entity
	notes  []store.NoteSource
	meta   map[string]string
}

func (f *fakeSource) ListChunks(context.Context, []string) ([]store.Chunk, error) {
	return f.chunks, nil
}
func (f *fakeSource) Entities(_ context.Context, scope string) ([]store.Entity, error) {
	return f.ents[scope], nil
}
func (f *fakeSource) NoteSources(context.Context) ([]store.NoteSource, error) { return f.notes, nil }
func (f *fakeSource) Meta(_ context.Context, k string) (string, error)        { return f.meta[k], nil }
func (f *fakeSource) SetMeta(_ context.Context, k, v string) error {
	f.meta[k] = v
	return nil
}

func sessionChunk(uid, path string, session int, text string, restricted bool) store.Chunk {
	return store.Chunk{ChunkData: store.ChunkData{UID: uid, Hash: "h-" + uid, Session: session, InSession: true,
		Label: path, Text: text}, Path: path, Restricted: restricted}
}

func noteChunk(uid, path, text string, restricted bool) store.Chunk {
	return store.Chunk{ChunkData: store.ChunkData{UID: uid, Hash: "h-" + uid, Label: path, Text: text}, Path: path, Restricted: restricted}
}

// campaign is a small campaign: Garrik dies in session 3 and acts in
// session 5 (a public note) and in session 6 (a DM-only note); Breto dies
// and is only remembered; two notes give Chispa two ages, one of them
// DM-only for Nix's age.
func campaign() *fakeSource {
	ents := []store.Entity{
		{Name: "Garrik Tresdedos", Kind: "npc", Aliases: []string{"Garrik"}, Note: "NPCs/Garrik.md"},
		{Name: "Breto", Kind: "other"},
		{Name: "Chispa", Kind: "npc", Note: "NPCs/Chispa.md"},
		{Name: "Nix", Kind: "pc", Note: "Fichas/Nix.md"},
	}
	return &fakeSource{
		chunks: []store.Chunk{
			sessionChunk("s2", "Sesiones/2.md", 2, "Garrik se ríe y paga la ronda. Breto pesca.", false),
			sessionChunk("s3", "Sesiones/3.md", 3, "Un virote desde un tejado. Garrik cae de rodillas y se muere en brazos de Fenwick. Breto ha muerto.", false),
			sessionChunk("s4", "Sesiones/4.md", 4, "Dejamos flores en la tumba de Garrik. Recordamos a Breto.", false),
			sessionChunk("s5", "Sesiones/5.md", 5, "En la taberna, Garrik levanta la jarra y brinda por nosotros.", false),
			sessionChunk("s6", "DM/6.md", 6, "Garrik conspira con el regente en secreto.", true),
			noteChunk("n1", "NPCs/Chispa.md", "Kobold.", false),
			noteChunk("n2", "Fichas/Chispa.md", "Ficha de Chispa.", false),
			noteChunk("n3", "Fichas/Nix.md", "Nix.", false),
			noteChunk("n4", "DM/Nix.md", "Nix, según el DM.", true),
		},
		ents: map[string][]store.Entity{store.ScopeDM: ents, store.ScopePlayer: ents},
		notes: []store.NoteSource{
			{Path: "DM/Nix.md", Title: "Nix", Restricted: true, Metadata: json.RawMessage(`{"edad": 30}`)},
			{Path: "Fichas/Chispa.md", Title: "Chispa", Metadata: json.RawMessage(`{"edad": 14, "tags": ["kobold"]}`)},
			{Path: "Fichas/Nix.md", Title: "Nix", Metadata: json.RawMessage(`{"edad": 22, "title": "Nix"}`)},
			{Path: "NPCs/Chispa.md", Title: "Chispa", Metadata: json.RawMessage(`{"edad": "9", "tags": ["npc"]}`)},
		},
		meta: map[string]string{},
	}
}

func summary(cs []Contradiction) []string {
	var out []string
	for _, c := range cs {
		s := c.Kind + " " + c.Entity + " " + c.First.ID + ">" + c.Second.ID + " " + c.Verdict
		if c.Field != "" {
			s += " " + c.Field + "=" + c.First.Text + "|" + c.Second.Text
		}
		out = append(out, s)
	}
	return out
}

func TestCheckFindsBothKinds(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		public bool
		want   []string
	}{
		{false, []string{
			"field Chispa n2>n1 unjudged edad=edad: 14|edad: 9",
			"gone_then_acts Garrik Tresdedos s3>s5 unjudged",
			"gone_then_acts Garrik Tresdedos s3>s6 unjudged",
			"field Nix n4>n3 unjudged edad=edad: 30|edad: 22",
		}},
		// A player's check never reads the DM-only session nor the
		// DM-only note.
		{true, []string{
			"field Chispa n2>n1 unjudged edad=edad: 14|edad: 9",
			"gone_then_acts Garrik Tresdedos s3>s5 unjudged",
		}},
	} {
		got, err := Check(ctx, campaign(), nil, c.public)
		if err != nil {
			t.Fatal(err)
		}
		if g, w := strings.Join(summary(got.Contradictions), "\n"), strings.Join(c.want, "\n"); g != w {
			t.Errorf("public=%v:\n%s\nwant\n%s", c.public, g, w)
		}
		for _, x := range got.Contradictions {
			if x.Kind == KindGoneThenActs && (x.First.Session == nil || *x.First.Session != 3) {
				t.Errorf("the death is cited in session %v, want 3", x.First.Session)
			}
			if c.public && strings.Contains(x.First.Text+x.Second.Text, "conspira") {
				t.Errorf("a player's check quotes a DM-only note: %+v", x)
			}
		}
	}
}

// model is a chat model on a fake Ollama server.
func model(t *testing.T, srv *chattest.Server) chat.Model {
	t.Helper()
	m, err := chat.New(chat.Config{Provider: "ollama", Model: "judge", URL: srv.URL, Timeout: 500 * time.Millisecond,
		FirstTokenTimeout: 500 * time.Millisecond, IdleTimeout: 500 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestCheckJudgesOncePerPair(t *testing.T) {
	ctx := context.Background()
	srv := chattest.NewOllama(t, func(c chattest.Call) string {
		if !strings.Contains(c.Text(chat.RoleSystem), "Revisas las notas") {
			t.Errorf("the prompt is not in the notes' language: %q", c.Text(chat.RoleSystem))
		}
		if strings.Contains(c.Text(chat.RoleUser), "edad") {
			return `{"verdict": "contradiction", "reason": "dos edades"}`
		}
		return `{"verdict": "consistent", "reason": "vuelve como fantasma"}`
	})
	src := campaign()
	got, err := Check(ctx, src, model(t, srv), true)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(srv.Calls()); n != 2 {
		t.Fatalf("%d calls for 2 pairs", n)
	}
	if len(got.Warnings) > 0 || got.Contradictions[0].Verdict != VerdictContradiction || got.Contradictions[0].Reason != "dos edades" ||
		got.Contradictions[1].Verdict != VerdictConsistent {
		t.Fatalf("verdicts: %+v, warnings %v", summary(got.Contradictions), got.Warnings)
	}
	again, err := Check(ctx, src, model(t, srv), true)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(srv.Calls()); n != 2 {
		t.Errorf("a second run called the model again (%d calls)", n)
	}
	if strings.Join(summary(again.Contradictions), "\n") != strings.Join(summary(got.Contradictions), "\n") {
		t.Errorf("the cached verdicts differ: %v", summary(again.Contradictions))
	}
}

func TestCheckModelMisbehaves(t *testing.T) {
	ctx := context.Background()
	for name, c := range map[string]struct {
		reply string
		fault *chattest.Fault
	}{
		"think only":     {reply: "<think>hmm, a ghost?</think>"},
		"malformed JSON": {reply: `{"verdict": "contradiction", "reason": `},
		"wrong verdict":  {reply: `{"verdict": "maybe"}`},
		"timeout":        {reply: `{"verdict": "consistent"}`, fault: &chattest.Fault{Stall: true}},
		"server error":   {reply: `{"verdict": "consistent"}`, fault: &chattest.Fault{Status: 500}},
	} {
		srv := chattest.NewOllama(t, func(chattest.Call) string { return c.reply })
		if c.fault != nil {
			srv.Fail(*c.fault)
		}
		src := campaign()
		got, err := Check(ctx, src, model(t, srv), true)
		if err != nil {
			t.Fatalf("%s: the check failed: %v", name, err)
		}
		if len(got.Contradictions) != 2 || len(got.Warnings) != 2 {
			t.Errorf("%s: %d pairs, warnings %q", name, len(got.Contradictions), got.Warnings)
		}
		for _, x := range got.Contradictions {
			if x.Verdict != VerdictUnjudged {
				t.Errorf("%s: verdict %q, want unjudged", name, x.Verdict)
			}
		}
		if len(src.meta) != 0 {
			t.Errorf("%s: a failed judgement was cached: %v", name, src.meta)
		}
	}
}

func TestParseVerdict(t *testing.T) {
	v, err := parseVerdict("<think>reasoning</think>\n```json\n{\"verdict\": \"Contradicción\", \"reason\": \" muere y actúa \"}\n```")
	if err != nil || v.Verdict != VerdictContradiction || v.Reason != "muere y actúa" {
		t.Errorf("parseVerdict = %+v, %v", v, err)
	}
}
