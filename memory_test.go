package oraculo_test

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/oraculo/oraculo"
	"github.com/oraculo/oraculo/chat"
	"github.com/oraculo/oraculo/chat/chattest"
)

var memoryLabelRe = regexp.MustCompile(`### \[(Memoria: [^\]]+)\]`)

// memoryModel answers by citing every memory label it was shown, then a
// memory label never delivered, and a hypothesis's key as if it were a
// label; it keeps the prompts it was sent.
type memoryModel struct {
	mu      sync.Mutex
	prompts []string
}

func (m *memoryModel) reply(c chattest.Call) string {
	switch kindOf(c) {
	case "annotate":
		return "Resumen."
	case "rerank":
		return `{"ids":[1]}`
	}
	p := c.Text(chat.RoleUser)
	m.mu.Lock()
	m.prompts = append(m.prompts, p)
	m.mu.Unlock()
	var b strings.Builder
	for _, l := range memoryLabelRe.FindAllStringSubmatch(p, -1) {
		b.WriteString("Así lo acordó la mesa [" + l[1] + "]. ")
	}
	if lm := labelRe.FindStringSubmatch(p); lm != nil && !strings.HasPrefix(lm[1], "Memoria: ") {
		b.WriteString("Las notas lo cuentan [" + lm[1] + "]. ")
	}
	b.WriteString("Y además hay una regla secreta [Memoria: regla inventada]. El dragón vive bajo la ciudad [Memoria: dragón].")
	return b.String()
}

// count is how many prompts the model was sent so far.
func (m *memoryModel) count() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.prompts)
}

// since returns the prompts sent after the first n, joined.
func (m *memoryModel) since(n int) string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return strings.Join(m.prompts[n:], "\n")
}

func (m *memoryModel) last(t *testing.T) string {
	t.Helper()
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.prompts) == 0 {
		t.Fatal("the model was never asked")
	}
	return m.prompts[len(m.prompts)-1]
}

// memoryNotes are askNotes with a rules note and a DM-only note.
func memoryNotes(t *testing.T) string {
	dir := askNotes(t)
	write(t, dir+"/Reglas/Casa.md", "# Reglas de la casa\n\nLos críticos se tiran con un dado de veinte caras.\n")
	write(t, dir+"/DM/Secretos.md", "# Secretos\n\nEl archiduque Leoric es un vampiro y bebe de sus sirvientes.\n")
	return dir
}

func mustAdd(t *testing.T, eng *oraculo.Engine, ctx context.Context, in oraculo.MemoryInput) oraculo.Memory {
	t.Helper()
	m, err := eng.AddMemory(ctx, in)
	if err != nil {
		t.Fatalf("adding %+v: %v", in, err)
	}
	return m
}

func useOf(a *oraculo.Answer, id string) (oraculo.MemoryUse, bool) {
	for _, u := range a.Memory {
		if u.ID == id {
			return u, true
		}
	}
	return oraculo.MemoryUse{}, false
}

// TestAskWithMemory: verified entries in scope are delivered in their own
// block, labelled "Memoria: KEY", cited and verified like notes; a forged
// memory label and a hypothesis cited as fact are removed; hypotheses are
// shown as unconfirmed; an entry whose note changed is stale and not
// evidence until verified again; a player sees only what is theirs to see;
// a forgotten entry is in no answer afterwards.
func TestAskWithMemory(t *testing.T) {
	ctx := context.Background()
	fm := &memoryModel{}
	srv := chattest.NewOllama(t, fm.reply)
	eng, _ := openEngine(t, oraculo.WithChatModel(chat.NewOllama(chat.OllamaConfig{BaseURL: srv.URL, Model: "fake"})))
	notes := memoryNotes(t)
	if _, err := eng.Ingest(ctx, []string{notes}, oraculo.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	crit := mustAdd(t, eng, ctx, oraculo.MemoryInput{Scope: "campaign", Key: "críticos", Value: "Un 20 natural dobla los dados de daño.", Verified: true})
	dragon := mustAdd(t, eng, ctx, oraculo.MemoryInput{Scope: "campaign", Key: "dragón", Value: "El dragón rojo duerme bajo Caldemora."})
	garrik := mustAdd(t, eng, ctx, oraculo.MemoryInput{Scope: "campaign", Key: "Garrik", Value: "Garrik perdió los dedos en un duelo con el contrabandista Orso.", Note: "NPCs/Garrik.md", Verified: true})
	ana := mustAdd(t, eng, ctx, oraculo.MemoryInput{Scope: "player:ana", Key: "personaje de Ana", Value: "Ana juega a Elara la barda.", Verified: true})
	secret := mustAdd(t, eng, ctx, oraculo.MemoryInput{Scope: "dm", Key: "vampiro", Value: "El archiduque Leoric es el vampiro de la cripta.", Verified: true})
	fromSecret := mustAdd(t, eng, ctx, oraculo.MemoryInput{Scope: "campaign", Key: "sirvientes del archiduque", Value: "Los sirvientes del archiduque están pálidos.", Note: "DM/Secretos.md", Verified: true})

	// A verified entry: delivered, cited, verified; the forged label and
	// the hypothesis cited as fact are removed.
	a, err := eng.Ask(ctx, "¿Cómo funcionan los críticos?", oraculo.AskOptions{})
	if err != nil {
		t.Fatal(err)
	}
	p := fm.last(t)
	if !strings.Contains(p, "### [Memoria: críticos]\nUn 20 natural dobla los dados de daño.") {
		t.Fatalf("the verified entry is not in its own block under its label:\n%s", p)
	}
	u, ok := useOf(a, crit.ID)
	if !ok || u.Use != oraculo.MemoryEvidence || u.Label != "Memoria: críticos" || u.Status != "verified" || u.Stale {
		t.Errorf("memory used: %+v; want %s as evidence", a.Memory, crit.ID)
	}
	var cited bool
	for _, c := range a.Citations {
		if c.Label == "Memoria: críticos" {
			cited = c.Valid && c.Delivered && c.Kind == "memory" && c.Evidence != nil && *c.Evidence == crit.ID
		}
	}
	if !cited || !strings.Contains(a.Answer, "[Memoria: críticos]") {
		t.Errorf("the memory citation is not valid: answer %q, citations %+v", a.Answer, a.Citations)
	}
	removed := map[string]bool{}
	for _, c := range a.Removed {
		removed[c.Label] = !c.Valid
	}
	if !removed["Memoria: regla inventada"] {
		t.Errorf("the forged memory label was not caught: removed %+v, answer %q", a.Removed, a.Answer)
	}
	var evMemory bool
	for _, ev := range a.Evidence {
		if ev.ID == crit.ID {
			evMemory = ev.Kind == "memory" && ev.Label == "Memoria: críticos"
		}
	}
	if !evMemory || a.Context.Memory != 1 {
		t.Errorf("evidence %+v, context %+v: want the entry delivered as memory", a.Evidence, a.Context)
	}
	if got := a.CitedEvidence(); len(got) == 0 {
		t.Errorf("no cited evidence")
	}

	// A hypothesis: shown as unconfirmed, with no label; citing it is
	// removed.
	a, err = eng.Ask(ctx, "¿Dónde duerme el dragón rojo de Caldemora?", oraculo.AskOptions{})
	if err != nil {
		t.Fatal(err)
	}
	p = fm.last(t)
	if !strings.Contains(p, "- dragón: El dragón rojo duerme bajo Caldemora.") || strings.Contains(p, "[Memoria: dragón]") {
		t.Errorf("the hypothesis is not shown as unconfirmed, without a label:\n%s", p)
	}
	if u, ok := useOf(a, dragon.ID); !ok || u.Use != oraculo.MemoryUnconfirmed || u.Label != "" {
		t.Errorf("memory used: %+v; want %s unconfirmed", a.Memory, dragon.ID)
	}
	if strings.Contains(a.Answer, "[Memoria: dragón]") {
		t.Errorf("the hypothesis was cited as fact: %q", a.Answer)
	}

	// An entry from a note: evidence while the note is as it was, stale
	// (unconfirmed, not evidence) once it changes, evidence again once
	// verified.
	q := "¿Cómo perdió Garrik los dedos?"
	if a, err = eng.Ask(ctx, q, oraculo.AskOptions{}); err != nil {
		t.Fatal(err)
	}
	if u, ok := useOf(a, garrik.ID); !ok || u.Use != oraculo.MemoryEvidence {
		t.Fatalf("memory used: %+v; want %s as evidence", a.Memory, garrik.ID)
	}
	write(t, notes+"/NPCs/Garrik.md", "# Garrik\n\nContrabandista del puerto de Caldemora. Tiene todos los dedos.\n")
	if _, err := eng.Ingest(ctx, []string{notes}, oraculo.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	if a, err = eng.Ask(ctx, q, oraculo.AskOptions{}); err != nil {
		t.Fatal(err)
	}
	p = fm.last(t)
	if u, ok := useOf(a, garrik.ID); !ok || u.Use != oraculo.MemoryUnconfirmed || !u.Stale {
		t.Errorf("after the note changed, memory used: %+v; want %s stale, unconfirmed", a.Memory, garrik.ID)
	}
	if strings.Contains(p, "[Memoria: Garrik]") || !strings.Contains(p, "posiblemente caducada") {
		t.Errorf("the stale entry is offered as evidence, or not marked:\n%s", p)
	}
	if ms, _ := eng.Memories(ctx, "campaign", false); !staleIn(ms, garrik.ID) {
		t.Errorf("Memories does not mark %s stale: %+v", garrik.ID, ms)
	}
	if _, err := eng.VerifyMemory(ctx, garrik.ID); err != nil {
		t.Fatal(err)
	}
	if a, err = eng.Ask(ctx, q, oraculo.AskOptions{}); err != nil {
		t.Fatal(err)
	}
	if u, ok := useOf(a, garrik.ID); !ok || u.Use != oraculo.MemoryEvidence || u.Stale {
		t.Errorf("after verifying again, memory used: %+v; want %s as evidence", a.Memory, garrik.ID)
	}

	// Players: ana's entry is evidence for ana, absent for bruno; the DM's
	// scope, the DM's hypotheses and an entry from a DM-only note reach no
	// player's prompt.
	asAna, asBruno := oraculo.WithPlayer(ctx, "ana"), oraculo.WithPlayer(ctx, "bruno")
	if a, err = eng.Ask(asAna, "¿A quién juega Ana? ¿Quién es Elara?", oraculo.AskOptions{}); err != nil {
		t.Fatal(err)
	}
	if u, ok := useOf(a, ana.ID); !ok || u.Use != oraculo.MemoryEvidence {
		t.Errorf("ana's own entry, for ana: %+v", a.Memory)
	}
	for _, who := range []context.Context{asBruno, oraculo.WithRole(ctx, oraculo.RolePlayer)} {
		for _, question := range []string{"¿A quién juega Ana? ¿Quién es Elara?", "¿Es vampiro el archiduque Leoric?", "¿Cómo están los sirvientes del archiduque?", "¿Dónde duerme el dragón rojo?"} {
			n := fm.count()
			if a, err = eng.Ask(who, question, oraculo.AskOptions{}); err != nil {
				t.Fatal(err)
			}
			p = fm.since(n)
			for _, leak := range []string{"Elara la barda", "vampiro de la cripta", "están pálidos", "duerme bajo Caldemora"} {
				if strings.Contains(p, leak) {
					t.Errorf("a player asking %q was shown %q:\n%s", question, leak, p)
				}
			}
			for _, id := range []string{ana.ID, secret.ID, fromSecret.ID, dragon.ID} {
				if _, ok := useOf(a, id); ok {
					t.Errorf("a player asking %q got %s in the answer's memory", question, id)
				}
			}
		}
	}
	// The DM sees the entry from the DM-only note.
	if a, err = eng.Ask(ctx, "¿Cómo están los sirvientes del archiduque?", oraculo.AskOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, ok := useOf(a, fromSecret.ID); !ok {
		t.Errorf("the DM was not shown %s: %+v", fromSecret.ID, a.Memory)
	}

	// Forgotten: in no answer afterwards.
	if err := eng.ForgetMemory(ctx, crit.ID); err != nil {
		t.Fatal(err)
	}
	n := fm.count()
	if a, err = eng.Ask(ctx, "¿Cómo funcionan los críticos?", oraculo.AskOptions{}); err != nil {
		t.Fatal(err)
	}
	if p = fm.since(n); p == "" || strings.Contains(p, "dobla los dados") {
		t.Errorf("a forgotten entry reached the prompt:\n%s", p)
	}
	if _, ok := useOf(a, crit.ID); ok || strings.Contains(a.Answer, "[Memoria: críticos]") {
		t.Errorf("a forgotten entry is in the answer: %+v, %q", a.Memory, a.Answer)
	}
	if _, err := eng.MemoryChain(ctx, crit.ID); !errors.Is(err, oraculo.ErrNoMemory) {
		t.Errorf("MemoryChain of a forgotten entry: %v", err)
	}
}

func staleIn(ms []oraculo.Memory, id string) bool {
	for _, m := range ms {
		if m.ID == id {
			return m.Stale
		}
	}
	return false
}

// TestExtractiveQuotesMemory: without a chat model, a verified entry that
// answers the question is quoted and cited like a note.
func TestExtractiveQuotesMemory(t *testing.T) {
	ctx := context.Background()
	eng, _ := openEngine(t)
	if _, err := eng.Ingest(ctx, []string{memoryNotes(t)}, oraculo.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	m := mustAdd(t, eng, ctx, oraculo.MemoryInput{Scope: "campaign", Key: "críticos", Value: "Un 20 natural en un crítico dobla los dados de daño.", Verified: true})
	a, err := eng.Ask(ctx, "¿Qué hace un 20 natural en un crítico?", oraculo.AskOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if a.Mode != "extractive" || !strings.Contains(a.Answer, "dobla los dados de daño. [Memoria: críticos]") {
		t.Errorf("extractive answer %q (mode %s); want the entry quoted and cited", a.Answer, a.Mode)
	}
	var ok bool
	for _, c := range a.Citations {
		ok = ok || (c.Valid && c.Evidence != nil && *c.Evidence == m.ID)
	}
	if !ok {
		t.Errorf("citations %+v: want one valid citation of %s", a.Citations, m.ID)
	}
}

// TestPlayerNamesNoSecretNote: a player naming a DM-only note as the
// source of an entry, new or superseding, gets the answer a note that does
// not exist gets.
func TestPlayerNamesNoSecretNote(t *testing.T) {
	ctx := context.Background()
	eng, _ := openEngine(t)
	if _, err := eng.Ingest(ctx, []string{memoryNotes(t)}, oraculo.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	ana := oraculo.WithPlayer(ctx, "ana")
	m := mustAdd(t, eng, ana, oraculo.MemoryInput{Scope: "player:ana", Key: "k", Value: "v"})
	_, missing := eng.AddMemory(ana, oraculo.MemoryInput{Scope: "player:ana", Key: "k2", Value: "v", Note: "DM/Nada.md"})
	_, secret := eng.AddMemory(ana, oraculo.MemoryInput{Scope: "player:ana", Key: "k2", Value: "v", Note: "DM/Secretos.md"})
	_, superseded := eng.SupersedeMemory(ana, m.ID, oraculo.MemoryInput{Value: "v2", Note: "DM/Secretos.md"})
	if missing == nil || secret == nil || superseded == nil || !errors.Is(secret, oraculo.ErrInvalidMemory) ||
		strings.ReplaceAll(secret.Error(), "Secretos", "Nada") != missing.Error() ||
		strings.ReplaceAll(superseded.Error(), "Secretos", "Nada") != missing.Error() {
		t.Errorf("a missing note: %v; the DM-only one: %v, superseding with it: %v", missing, secret, superseded)
	}
	if _, err := eng.AddMemory(ctx, oraculo.MemoryInput{Scope: "dm", Key: "k", Value: "v", Note: "DM/Secretos.md"}); err != nil {
		t.Errorf("the DM naming the DM-only note: %v", err)
	}

	// A chunk as the source: its note at the version stored, and the
	// chunk named; a DM-only chunk is, to a player, one that does not
	// exist.
	chunks := func(path string) oraculo.ChunkInfo {
		cs, err := eng.Chunks(ctx, []string{path})
		if err != nil || len(cs) == 0 {
			t.Fatalf("chunks of %s: %v", path, err)
		}
		return cs[0]
	}
	garrik, secretChunk := chunks("NPCs/Garrik.md"), chunks("DM/Secretos.md")
	m2 := mustAdd(t, eng, ana, oraculo.MemoryInput{Scope: "player:ana", Key: "garrik", Value: "manco", Chunk: garrik.ID})
	if !strings.HasPrefix(m2.Source, "note:NPCs/Garrik.md@") || !strings.HasSuffix(m2.Source, "#"+garrik.ID) {
		t.Errorf("source from a chunk: %q", m2.Source)
	}
	_, noChunk := eng.AddMemory(ana, oraculo.MemoryInput{Scope: "player:ana", Key: "k3", Value: "v", Chunk: "ffffffffffffffff"})
	_, hidden := eng.AddMemory(ana, oraculo.MemoryInput{Scope: "player:ana", Key: "k3", Value: "v", Chunk: secretChunk.ID})
	if noChunk == nil || hidden == nil || strings.ReplaceAll(hidden.Error(), secretChunk.ID, "ffffffffffffffff") != noChunk.Error() {
		t.Errorf("a missing chunk: %v; a DM-only one: %v", noChunk, hidden)
	}
	if _, err := eng.AddMemory(ctx, oraculo.MemoryInput{Scope: "dm", Key: "k4", Value: "v", Chunk: garrik.ID, Note: "DM/Secretos.md"}); !errors.Is(err, oraculo.ErrInvalidMemory) {
		t.Errorf("a chunk of another note: %v", err)
	}
	if _, err := eng.VerifyMemory(ctx, m2.ID); err != nil {
		t.Fatal(err)
	}
	if ms, _ := eng.MemoryChain(ctx, m2.ID); len(ms) == 0 || ms[0].Source != m2.Source {
		t.Errorf("verified again, the source from a chunk: %+v; want %q", ms, m2.Source)
	}
}

// TestAskMemoryConcurrently: answers for the DM and for players at once
// share the view's cache of entry terms (run with -race), and each gets
// only the entries it may see.
func TestAskMemoryConcurrently(t *testing.T) {
	ctx := context.Background()
	eng, _ := openEngine(t)
	if _, err := eng.Ingest(ctx, []string{memoryNotes(t)}, oraculo.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	mine := mustAdd(t, eng, ctx, oraculo.MemoryInput{Scope: "player:ana", Key: "críticos de Ana", Value: "Ana tira los críticos con su dado de la suerte.", Verified: true})
	rule := mustAdd(t, eng, ctx, oraculo.MemoryInput{Scope: "campaign", Key: "críticos", Value: "Un 20 natural dobla los dados de daño.", Verified: true})
	var wg sync.WaitGroup
	errs := make(chan error, 12)
	for i := range 12 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			who, name := ctx, "dm"
			switch i % 3 {
			case 1:
				who, name = oraculo.WithPlayer(ctx, "ana"), "ana"
			case 2:
				who, name = oraculo.WithPlayer(ctx, "bruno"), "bruno"
			}
			a, err := eng.Ask(who, "¿Cómo funcionan los críticos?", oraculo.AskOptions{})
			if err != nil {
				errs <- err
				return
			}
			_, hasMine := useOf(a, mine.ID)
			_, hasRule := useOf(a, rule.ID)
			if !hasRule || hasMine != (name != "bruno") {
				errs <- fmt.Errorf("%s got memory %+v", name, a.Memory)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
