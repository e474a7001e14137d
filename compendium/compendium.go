package compendium

import (
	"context"
	"fmt"
	"path"
	"sort"
	"strings"
)

// Kind is what sort of thing an entity is.
type Kind string

// The kinds of entity. KindOther is for anything whose kind is unknown,
// including every name found only by the heuristics.
const (
	KindPC      Kind = "pc"
	KindNPC     Kind = "npc"
	KindPlace   Kind = "place"
	KindFaction Kind = "faction"
	KindGod     Kind = "god"
	KindItem    Kind = "item"
	KindOther   Kind = "other"
)

// Sources of an entity, from the most to the least authoritative.
const (
	SourceFile      = "file"      // compendium.yaml
	SourceNote      = "note"      // a note's title and front-matter aliases
	SourceWikilink  = "wikilink"  // [[Target]] and [[Target|shown text]]
	SourceHeading   = "heading"   // a "## Name" section of a collection note
	SourceExtra     = "extra"     // BuildWith's extra entities (an Extractor)
	SourceHeuristic = "heuristic" // capitalised names seen often enough
)

// Entity is one thing the notes name.
type Entity struct {
	Name    string   // canonical name
	Kind    Kind     // never ""
	Aliases []string // other names it goes by (never Name itself), sorted
	Note    string   // path of the note that describes it, "" if none
	Source  string   // most authoritative source: SourceFile ... SourceHeuristic
}

// NoteInput is one note as the compendium sees it.
type NoteInput struct {
	Path    string   // relative, forward slashes: "NPCs/Harbin Wester.md"
	Title   string   // front matter title or first H1 or file stem (already derived)
	Aliases []string // front matter aliases
	Tags    []string
	Text    string // body (Markdown), front matter removed
}

// Config tunes extraction. The zero value gives the defaults.
type Config struct {
	// FolderKinds maps a folder name (matched case- and
	// accent-insensitively, at any depth; the deepest match wins) to the
	// kind of the notes inside it. Entries are added to the defaults
	// (DefaultFolderKinds) and replace them; an entry with an empty kind
	// removes a default.
	FolderKinds map[string]Kind
	// TagKinds maps a front-matter tag to the kind of the note, for notes
	// whose folder gives none; same rules as FolderKinds, defaults in
	// DefaultTagKinds ("npc", "pj", "lugar"...). A note with such a tag is
	// an entity note wherever it is.
	TagKinds map[string]Kind
	// A heuristic name must appear in at least MinNotes distinct notes and
	// MinMentions times in all (defaults 2 and 3; 0 means the default). A
	// negative MinMentions turns the heuristics off. Measured on the sample
	// campaign (examples/campaign: 44 notes, 200 KB; TestSampleCampaign):
	// 1/1 gives 103 heuristic names, adding rules-text junk ("Persuasión",
	// "Sabiduría", "WhatsApp") to one-off NPCs; 2/2 gives 75; 2/3 gives 68
	// with little junk ("Alba", "Voz"); 3/3 gives 53; 3/5 gives 39 and
	// loses recurring minor NPCs and places.
	MinNotes, MinMentions int
	// SkipFolders: notes under these folders (matched like FolderKinds)
	// are not sources of entities: no title, alias, link, heading or name
	// is taken from them, and a link to one of them does not resolve to it
	// (e.g. "DM" when the reader is a player). Default none.
	SkipFolders []string
}

// DefaultFolderKinds are the folder names recognised without configuration
// (read only: use Config.FolderKinds to change them).
var DefaultFolderKinds = map[string]Kind{
	"NPCs": KindNPC, "NPC": KindNPC, "PNJs": KindNPC, "PNJ": KindNPC,
	"PCs": KindPC, "PJs": KindPC, "Fichas": KindPC, "Personajes": KindPC, "Jugadores": KindPC,
	"Lugares": KindPlace, "Mapa": KindPlace, "Mapas": KindPlace, "Places": KindPlace,
	"Locations": KindPlace, "Ciudades": KindPlace,
	"Facciones": KindFaction, "Factions": KindFaction, "Organizaciones": KindFaction,
	"Dioses": KindGod, "Gods": KindGod, "Deidades": KindGod, "Panteón": KindGod,
	"Objetos": KindItem, "Items": KindItem, "Artefactos": KindItem,
}

// DefaultTagKinds are the tags recognised without configuration (read only;
// singular words only: a "facciones" tag is on the note that lists
// factions, not on a faction).
var DefaultTagKinds = map[string]Kind{
	"pj": KindPC, "pc": KindPC,
	"npc": KindNPC, "pnj": KindNPC,
	"lugar": KindPlace, "place": KindPlace, "location": KindPlace,
	"facción": KindFaction, "faction": KindFaction,
	"dios": KindGod, "diosa": KindGod, "deidad": KindGod, "god": KindGod,
	"objeto": KindItem, "artefacto": KindItem, "item": KindItem,
}

// Extractor is the seam for a later extraction pass by a language model:
// given one note, a chat model returns the entities the note names (Name,
// Kind, Aliases; Note may be left empty and is then set to the note's
// path by RunExtractor). Its output goes to BuildWith as extra entities,
// which rank below the file, the notes, the links and the headings, and
// above the heuristics.
type Extractor func(ctx context.Context, note NoteInput) ([]Entity, error)

// RunExtractor runs ex over the notes in order and concatenates what it
// returns, for BuildWith. It stops at the first error, or when ctx ends.
func RunExtractor(ctx context.Context, ex Extractor, notes []NoteInput) ([]Entity, error) {
	var out []Entity
	for _, n := range notes {
		if err := ctx.Err(); err != nil {
			return out, err
		}
		es, err := ex(ctx, n)
		if err != nil {
			return out, fmt.Errorf("extract %q: %w", n.Path, err)
		}
		for _, e := range es {
			if e.Note == "" {
				e.Note = n.Path
			}
			out = append(out, e)
		}
	}
	return out, nil
}

// Build extracts the compendium from the notes. See BuildWith.
func Build(notes []NoteInput, file *File, cfg Config) ([]Entity, error) {
	return BuildWith(notes, file, cfg)
}

// BuildWith extracts the compendium from the notes, the user's file (may be
// nil) and extra entities (from an Extractor), in this order of authority:
//
//  1. file: the entities of compendium.yaml (Source "file").
//  2. note: a note in an entity folder (FolderKinds), with a kind tag
//     (TagKinds) or with front-matter aliases is an entity: its title
//     without a trailing parenthetical ("La Mano Gris (secreto)" → "La Mano
//     Gris"), its aliases and its file stem when it differs from the title.
//     The kind comes from the folder, else the tags, else KindOther.
//  3. wikilink: [[Target]] names the note whose title, stem or alias (or
//     path, "[[NPCs/Harbin]]") is Target, or else an entity called Target;
//     [[Target|shown]] makes "shown" an alias; "#heading" and "^block" are
//     ignored except that [[Dioses#Aurelith]] into a collection note names
//     the section's entity. Embeds (![[...]]) and links in code are not
//     mentions.
//  4. heading: in a collection note, one whose stem or title (or its first
//     word) is a FolderKinds folder name ("Mundo/Dioses.md", "Dioses de la
//     Marca"), every "## Name" section is an entity of that kind; "##
//     Aurelith, la Señora del Alba" gives Aurelith with the alias "la
//     Señora del Alba". In other notes of entity folders, "##"/"###"
//     headings that look like proper names ("### El Palacio de las
//     Mareas": an article or two words or more, every word but particles
//     capitalised) are entities too: places inside place notes, KindOther
//     elsewhere. Leading articles are dropped ("La Guardia de Ceniza" →
//     "Guardia de Ceniza").
//  5. extra: the extra entities, as given (Source "extra").
//  6. heuristic: capitalised word sequences; see below.
//
// An entity claimed at a lower level under a name that is an entity's name,
// or the alias of exactly one entity (except for notes: a note's title is
// only compared with names), completes that entity: it adds its aliases, a
// kind if the entity's is KindOther and a note if it has none.
//
// Heuristic names are maximal sequences of capitalised words, joined by up
// to two particles (de, del, la, las, los, el), with leading stop words
// dropped ("En Caldemora" → "Caldemora", "Los Gatos de Cal" → "Gatos de
// Cal"). A sequence at the start of a sentence counts only if the same name
// is seen elsewhere not at a sentence start; otherwise its first word is
// dropped ("Luego Tomás" → "Tomás"). "Ciudad Alta de Caldemora", where
// "Caldemora" is already an entity, counts as "Ciudad Alta". All-caps words
// are shouting or acronyms, not names (except roman numerals after a
// name). Never a name: a stop word, an honorific or a session word
// ("Sesión", "Capítulo") alone, a real month or weekday, a word of fewer
// than 3 letters, and a name seen in dates in a third of its mentions or
// more ("3 de Brumal", "Brumal del 1347", "Altasol del año pasado": the
// months of a campaign calendar). A name must pass the MinNotes and
// MinMentions thresholds; then, longer names first:
//
//   - if it is, with or without leading honorifics, an entity's name or
//     alias (also without a leading article: "Dama Velada" for "la Dama
//     Velada"), it is that entity and nothing is added;
//   - if it is an alias of exactly one entity without its honorifics
//     ("Emeric" for "Lord Emeric"), it becomes an alias of that entity;
//   - if it is the first or last word of exactly one PC's or NPC's name and
//     no other entity's name has that word ("Leoric" for "Leoric
//     Valcárcel"; not "Valcárcel", shared by two), it becomes an alias of
//     that person;
//   - if it is the first words of exactly one entity's name ("Orden" for
//     "Orden del Alba Quebrada", "Sancho" for "Sancho Rémol"), it becomes
//     an alias of that entity;
//   - otherwise it is a new KindOther entity named by its most frequent
//     spelling ("Maese Corvo" is not one when "Corvo" is).
//
// The file's renames are applied next (the entity called From, or with the
// alias From, is renamed To, and From becomes an alias; if an entity called
// To exists the two are merged), then its merges (the entities called or
// aliased Names are merged into Into, created if needed), then its bans
// (no entity nor alias has a banned name).
//
// Entities are unique by normalised name (Normalize). Finally aliases are
// settled: an alias equal to an entity's name is dropped; an alias claimed
// by several entities goes to the one that claims it with more authority,
// and on a tie to none of them (an ambiguous alias would send a question
// to the wrong notes). Output is sorted by normalised name, aliases too.
//
// The error reports an invalid configuration or file (an unknown kind).
func BuildWith(notes []NoteInput, file *File, cfg Config, extra ...[]Entity) ([]Entity, error) {
	c, err := NewCorpus(cfg)
	if err != nil {
		return nil, err
	}
	for _, n := range notes {
		c.Add(n, nil)
	}
	return build(c, file, extra)
}

// build is BuildWith over a corpus.
func build(corpus *Corpus, file *File, extra [][]Entity) ([]Entity, error) {
	c := corpus.cfg
	b := newBuilder(c, file)
	if file != nil {
		var cl []claim
		for i, e := range file.Entities {
			k, ok := parseKind(string(e.Kind))
			if !ok {
				return nil, fmt.Errorf("compendium file: entities[%d] (%q): unknown kind %q", i, e.Name, e.Kind)
			}
			cl = append(cl, claim{name: e.Name, kind: k, aliases: e.Aliases, note: e.Note})
		}
		b.addLevel(lvFile, cl)
	}
	v := newVault(corpus)
	b.addLevel(lvNote, v.noteClaims())
	b.addLevel(lvWikilink, v.wikilinkClaims())
	b.addLevel(lvHeading, v.headingClaims())
	var ex []claim
	for _, list := range extra {
		for _, e := range list {
			k, ok := parseKind(string(e.Kind))
			if !ok {
				return nil, fmt.Errorf("extra entity %q: unknown kind %q", e.Name, e.Kind)
			}
			ex = append(ex, claim{name: e.Name, kind: k, aliases: e.Aliases, note: e.Note})
		}
	}
	b.addLevel(lvExtra, ex)
	if c.minMentions >= 0 {
		if err := b.addHeuristics(corpus); err != nil {
			return nil, fmt.Errorf("reading the lowercase words: %w", err)
		}
	}
	if file != nil {
		b.applyFile(file)
	}
	return b.result(), nil
}

// settings is a Config with the defaults applied and keys normalised.
type settings struct {
	folderKinds, tagKinds map[string]Kind
	skip                  map[string]bool
	minNotes, minMentions int
}

func newSettings(cfg Config) (*settings, error) {
	s := &settings{minNotes: cfg.MinNotes, minMentions: cfg.MinMentions, skip: map[string]bool{}}
	if s.minNotes <= 0 {
		s.minNotes = 2
	}
	if s.minMentions == 0 {
		s.minMentions = 3
	}
	var err error
	if s.folderKinds, err = kindMap(DefaultFolderKinds, cfg.FolderKinds, "folder"); err != nil {
		return nil, err
	}
	if s.tagKinds, err = kindMap(DefaultTagKinds, cfg.TagKinds, "tag"); err != nil {
		return nil, err
	}
	for _, f := range cfg.SkipFolders {
		if k := Normalize(f); k != "" {
			s.skip[k] = true
		}
	}
	return s, nil
}

func kindMap(defaults, user map[string]Kind, what string) (map[string]Kind, error) {
	m := make(map[string]Kind, len(defaults)+len(user))
	for k, v := range defaults {
		m[Normalize(k)] = v
	}
	for k, v := range user {
		kind, ok := parseKind(string(v))
		if !ok {
			return nil, fmt.Errorf("config: %s %q: unknown kind %q", what, k, v)
		}
		if kind == "" {
			delete(m, Normalize(k))
		} else {
			m[Normalize(k)] = kind
		}
	}
	return m, nil
}

// level is the authority of a claim; higher is more authoritative.
type level int

const (
	lvHeuristic level = iota + 1
	lvExtra
	lvHeading
	lvWikilink
	lvNote
	lvFile
)

func (l level) source() string {
	switch l {
	case lvFile:
		return SourceFile
	case lvNote:
		return SourceNote
	case lvWikilink:
		return SourceWikilink
	case lvHeading:
		return SourceHeading
	case lvExtra:
		return SourceExtra
	}
	return SourceHeuristic
}

// claim is one source's statement that an entity exists.
type claim struct {
	name    string
	kind    Kind
	aliases []string
	note    string
}

// ent is an entity being built.
type ent struct {
	name, key string
	kind      Kind
	note      string
	level     level
	aliases   map[string]*aliasInfo // by normalised alias
	dead      bool                  // merged into another
}

type aliasInfo struct {
	text  string
	level level
}

type builder struct {
	cfg     *settings
	ban     map[string]bool
	ents    []*ent
	byName  map[string]*ent
	byAlias map[string][]*ent
}

func newBuilder(cfg *settings, f *File) *builder {
	b := &builder{cfg: cfg, ban: map[string]bool{}, byName: map[string]*ent{}, byAlias: map[string][]*ent{}}
	if f != nil {
		for _, n := range f.Ban {
			b.ban[Normalize(n)] = true
		}
	}
	return b
}

// addLevel adds the claims of one level: each one's name is first resolved
// to an existing entity (same name, or alias of exactly one entity of a
// higher level) or creates one; then aliases, kinds and notes are added.
func (b *builder) addLevel(lv level, claims []claim) {
	targets := make([]*ent, len(claims))
	for i, c := range claims {
		k := Normalize(c.name)
		if k == "" || b.ban[k] {
			continue
		}
		e := b.byName[k]
		if e == nil && lv != lvNote {
			// A note stands for itself: its title is not looked up among
			// the aliases (an alias equal to its name is dropped instead).
			e = b.find(k)
		}
		if e != nil {
			targets[i] = e
			continue
		}
		e = &ent{name: strings.TrimSpace(c.name), key: k, kind: KindOther, level: lv, aliases: map[string]*aliasInfo{}}
		b.ents = append(b.ents, e)
		b.byName[k] = e
		targets[i] = e
	}
	for i, c := range claims {
		e := targets[i]
		if e == nil {
			continue
		}
		b.addAlias(e, c.name, lv)
		for _, a := range c.aliases {
			b.addAlias(e, a, lv)
		}
		if e.kind == KindOther && c.kind != "" {
			e.kind = c.kind
		}
		if e.note == "" {
			e.note = c.note
		}
	}
}

// find returns the live entity named k, or else the only live entity with
// the alias k, or nil.
func (b *builder) find(k string) *ent {
	if e := b.byName[k]; e != nil && !e.dead {
		return e
	}
	var found *ent
	for _, e := range b.byAlias[k] {
		if e.dead || e == found {
			continue
		}
		if found != nil {
			return nil
		}
		found = e
	}
	return found
}

// addAlias records that e is also called name, with authority lv. The
// entity's own name and banned names are ignored.
func (b *builder) addAlias(e *ent, name string, lv level) {
	name = strings.TrimSpace(name)
	k := Normalize(name)
	if k == "" || k == e.key || b.ban[k] {
		return
	}
	if a := e.aliases[k]; a != nil {
		if lv > a.level {
			a.level = lv
		}
		return
	}
	e.aliases[k] = &aliasInfo{text: name, level: lv}
	b.byAlias[k] = append(b.byAlias[k], e)
}

// merge folds src into dst: src's name becomes an alias of dst with
// authority lv, its aliases move with theirs, and its kind and note fill
// dst's if dst has none.
func (b *builder) merge(dst, src *ent, lv level) {
	if dst == src {
		return
	}
	src.dead = true
	if b.byName[src.key] == src {
		delete(b.byName, src.key)
	}
	b.addAlias(dst, src.name, lv)
	for _, k := range sortedKeys(src.aliases) {
		a := src.aliases[k]
		b.addAlias(dst, a.text, a.level)
	}
	if dst.kind == KindOther {
		dst.kind = src.kind
	}
	if dst.note == "" {
		dst.note = src.note
	}
	if src.level > dst.level {
		dst.level = src.level
	}
}

// applyFile applies the file's renames and merges.
func (b *builder) applyFile(f *File) {
	for _, r := range f.Rename {
		e := b.find(Normalize(r.From))
		if e == nil {
			continue
		}
		to := Normalize(r.To)
		if to == "" || b.ban[to] {
			continue
		}
		e.level = lvFile
		if to == e.key {
			e.name = r.To
			continue
		}
		if other := b.byName[to]; other != nil && !other.dead {
			other.level = lvFile
			b.merge(other, e, lvFile)
			b.addAlias(other, r.From, lvFile)
			continue
		}
		delete(b.byName, e.key)
		old := e.name
		e.name, e.key = r.To, to
		delete(e.aliases, to)
		b.byName[to] = e
		b.addAlias(e, old, lvFile)
		b.addAlias(e, r.From, lvFile)
	}
	for _, m := range f.Merge {
		into := Normalize(m.Into)
		if into == "" || b.ban[into] {
			continue
		}
		dst := b.find(into)
		if dst == nil {
			dst = &ent{name: m.Into, key: into, kind: KindOther, level: lvFile, aliases: map[string]*aliasInfo{}}
			b.ents = append(b.ents, dst)
			b.byName[into] = dst
		}
		dst.level = lvFile
		for _, n := range m.Names {
			if e := b.find(Normalize(n)); e != nil {
				b.merge(dst, e, lvFile)
			}
			b.addAlias(dst, n, lvFile)
		}
	}
}

// result settles the aliases and returns the sorted entities.
func (b *builder) result() []Entity {
	var live []*ent
	names := map[string]bool{}
	for _, e := range b.ents {
		if !e.dead && !b.ban[e.key] {
			live = append(live, e)
			names[e.key] = true
		}
	}
	// The most authoritative claim on each alias.
	type claimant struct {
		e  *ent
		lv level
	}
	best := map[string][]claimant{}
	for _, e := range live {
		for k, a := range e.aliases {
			if names[k] || b.ban[k] {
				continue
			}
			cs := best[k]
			switch {
			case len(cs) == 0 || a.level > cs[0].lv:
				best[k] = []claimant{{e, a.level}}
			case a.level == cs[0].lv:
				best[k] = append(cs, claimant{e, a.level})
			}
		}
	}
	out := make([]Entity, 0, len(live))
	for _, e := range live {
		x := Entity{Name: e.name, Kind: e.kind, Note: e.note, Source: e.level.source()}
		if x.Kind == "" {
			x.Kind = KindOther
		}
		for _, k := range sortedKeys(e.aliases) {
			if cs := best[k]; len(cs) == 1 && cs[0].e == e {
				x.Aliases = append(x.Aliases, e.aliases[k].text)
			}
		}
		out = append(out, x)
	}
	sort.SliceStable(out, func(i, j int) bool {
		ki, kj := Normalize(out[i].Name), Normalize(out[j].Name)
		if ki != kj {
			return ki < kj
		}
		return out[i].Name < out[j].Name
	})
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// vault is the notes with what Build needs to know about each.
type vault struct {
	cfg   *settings
	notes []*noteInfo
	// index resolves a link target (normalised title, stem, alias or path
	// without extension) to notes; exact (title, stem, path) before alias.
	exact, byAlias map[string][]*noteInfo
}

type noteInfo struct {
	in         NoteInput
	stem       string
	name       string // cleaned title (or stem)
	kind       Kind   // from folder, else tags; "" if none
	collection Kind   // kind of the entities of its "## Name" sections, "" if not a collection note
	entity     bool   // is itself an entity (level note)
	facts      *Facts // what its text says
}

// skippedPath reports whether a note lies under a SkipFolders folder.
func skippedPath(p string, cfg *settings) bool {
	if len(cfg.skip) == 0 {
		return false
	}
	for _, d := range strings.Split(path.Dir(p), "/") {
		if cfg.skip[Normalize(d)] {
			return true
		}
	}
	return false
}

func newVault(c *Corpus) *vault {
	v := &vault{cfg: c.cfg, exact: map[string][]*noteInfo{}, byAlias: map[string][]*noteInfo{}}
	for i, in := range c.notes {
		n := v.noteInfo(in, c.facts[i])
		v.notes = append(v.notes, n)
		for _, s := range []string{n.stem, n.name, strings.TrimSuffix(in.Path, path.Ext(in.Path))} {
			if k := Normalize(s); k != "" {
				v.exact[k] = appendOnce(v.exact[k], n)
			}
		}
		for _, a := range in.Aliases {
			if k := Normalize(a); k != "" {
				v.byAlias[k] = appendOnce(v.byAlias[k], n)
			}
		}
	}
	sort.SliceStable(v.notes, func(i, j int) bool { return v.notes[i].in.Path < v.notes[j].in.Path })
	for _, m := range []map[string][]*noteInfo{v.exact, v.byAlias} {
		for _, ns := range m {
			sort.SliceStable(ns, func(i, j int) bool { return ns[i].in.Path < ns[j].in.Path })
		}
	}
	return v
}

// noteInfo reads what a note is from its path, title, aliases and tags.
func (v *vault) noteInfo(in NoteInput, f *Facts) *noteInfo {
	cfg := v.cfg
	n := &noteInfo{in: in, facts: f}
	n.stem = strings.TrimSuffix(path.Base(in.Path), path.Ext(in.Path))
	dirs := strings.Split(path.Dir(in.Path), "/")
	for i := len(dirs) - 1; i >= 0; i-- {
		if kind := cfg.folderKinds[Normalize(dirs[i])]; kind != "" && n.kind == "" {
			n.kind = kind
		}
	}
	if n.kind == "" {
		for _, t := range in.Tags {
			t = strings.TrimPrefix(strings.TrimSpace(t), "#")
			if i := strings.Index(t, "/"); i >= 0 {
				t = t[:i]
			}
			if kind := cfg.tagKinds[Normalize(t)]; kind != "" {
				n.kind = kind
				break
			}
		}
	}
	n.name = cleanName(in.Title)
	if Normalize(n.name) == "" {
		n.name = n.stem
	}
	n.collection = v.collectionKind(n, in.Aliases)
	if n.collection != "" {
		n.kind = "" // a note listing gods is not a god
	}
	n.entity = n.kind != "" || len(in.Aliases) > 0
	return n
}

// collectionKind returns the kind of the entities listed by a collection
// note: one whose stem, title or alias is a FolderKinds folder name, or
// whose stem or title starts with one ("Dioses de la Marca"). "" if none.
func (v *vault) collectionKind(n *noteInfo, aliases []string) Kind {
	for i, s := range append([]string{n.stem, n.name}, aliases...) {
		k := Normalize(s)
		if kind := v.cfg.folderKinds[k]; kind != "" {
			return kind
		}
		if f := strings.Fields(k); i < 2 && len(f) > 1 {
			if kind := v.cfg.folderKinds[f[0]]; kind != "" {
				return kind
			}
		}
	}
	return ""
}

func appendOnce(ns []*noteInfo, n *noteInfo) []*noteInfo {
	for _, x := range ns {
		if x == n {
			return ns
		}
	}
	return append(ns, n)
}

// entityKind is the kind of the note as an entity.
func (n *noteInfo) entityKind() Kind {
	if n.kind == "" {
		return KindOther
	}
	return n.kind
}

func (v *vault) noteClaims() []claim {
	var out []claim
	for _, n := range v.notes {
		if !n.entity {
			continue
		}
		c := claim{name: n.name, kind: n.entityKind(), aliases: n.in.Aliases, note: n.in.Path}
		if Normalize(n.stem) != Normalize(n.name) {
			c.aliases = append(append([]string(nil), c.aliases...), n.stem)
		}
		out = append(out, c)
	}
	return out
}

// resolve returns the note a link target names, or nil.
func (v *vault) resolve(target string) *noteInfo {
	k := Normalize(target)
	if ns := v.exact[k]; len(ns) > 0 {
		return ns[0]
	}
	if i := strings.LastIndex(target, "/"); i >= 0 {
		if ns := v.exact[Normalize(target[i+1:])]; len(ns) > 0 {
			return ns[0]
		}
	}
	if ns := v.byAlias[k]; len(ns) > 0 {
		return ns[0]
	}
	return nil
}

func (v *vault) wikilinkClaims() []claim {
	var out []claim
	for _, n := range v.notes {
		for _, l := range n.facts.Links {
			c, ok := v.linkClaim(l)
			if !ok {
				continue
			}
			if d := cleanName(l.Display); d != "" && !allStop(Normalize(d)) {
				c.aliases = []string{d}
			}
			out = append(out, c)
		}
	}
	return out
}

// linkClaim is what one link says exists.
func (v *vault) linkClaim(l Wikilink) (claim, bool) {
	if t := v.resolve(l.Target); t != nil {
		if t.collection != "" && l.Heading != "" {
			if name, _, ok := headingName(l.Heading, true); ok {
				return claim{name: name, kind: t.collection, note: t.in.Path}, true
			}
		}
		if !t.entity && junkName(t.name) {
			return claim{}, false
		}
		return claim{name: t.name, kind: t.entityKind(), note: t.in.Path}, true
	}
	name := l.Target
	kind := KindOther
	if i := strings.LastIndex(name, "/"); i >= 0 {
		for _, d := range strings.Split(name[:i], "/") {
			if k := v.cfg.folderKinds[Normalize(d)]; k != "" {
				kind = k
			}
		}
		name = name[i+1:]
	}
	name = cleanName(name)
	if junkName(name) {
		return claim{}, false
	}
	return claim{name: name, kind: kind}, true
}

func (v *vault) headingClaims() []claim {
	var out []claim
	for _, n := range v.notes {
		if n.collection == "" && n.kind == "" {
			continue
		}
		for _, h := range n.facts.Headings {
			var c claim
			if n.collection != "" {
				if h.Level != 2 {
					continue
				}
				name, epithet, ok := headingName(h.Text, true)
				if !ok {
					continue
				}
				c = claim{name: name, kind: n.collection, note: n.in.Path}
				if epithet != "" {
					c.aliases = []string{epithet}
				}
			} else {
				if h.Level != 2 && h.Level != 3 {
					continue
				}
				name, epithet, ok := headingName(h.Text, false)
				if !ok || Normalize(name) == Normalize(n.name) {
					continue
				}
				c = claim{name: name, kind: KindOther, note: n.in.Path}
				if n.kind == KindPlace {
					c.kind = KindPlace
				}
				if epithet != "" {
					c.aliases = []string{epithet}
				}
			}
			out = append(out, c)
		}
	}
	return out
}

// headingName reads a heading as "Name" or "Name, epithet" (also "Name —
// epithet", "Name: epithet"). In a collection note any capitalised name
// is accepted (but not a generic section title such as "Notas"); elsewhere
// the name must look like a proper name: an article or two words or more,
// every word but particles capitalised.
func headingName(text string, collection bool) (name, epithet string, ok bool) {
	if strings.ContainsAny(text, "?¿!¡") {
		return "", "", false // a question is not a name
	}
	text = cleanLine(text)
	text = cleanName(text)
	for _, sep := range []string{", ", " — ", " – ", " - ", ": "} {
		if i := strings.Index(text, sep); i > 0 {
			text, epithet = text[:i], strings.TrimSpace(text[i+len(sep):])
			break
		}
	}
	text = cleanName(text)
	ws := lineWords(text)
	hadArticle := false
	for len(ws) > 0 && articles[ws[0].norm] {
		ws = ws[1:]
		hadArticle = true
	}
	if len(ws) == 0 {
		return "", "", false
	}
	for _, w := range ws {
		if !w.cap && !w.particle {
			return "", "", false
		}
	}
	if !ws[0].cap || ws[len(ws)-1].particle || isStop(ws[0].norm) {
		return "", "", false
	}
	name = surface(ws)
	if junkName(name) || len(ws) == 1 && genericHeadings[ws[0].norm] {
		return "", "", false
	}
	if !collection && !hadArticle && len(ws) < 2 {
		return "", "", false
	}
	if epithet != "" {
		epithet = cleanName(epithet)
		hasCap := false
		for _, w := range lineWords(epithet) {
			hasCap = hasCap || w.cap
		}
		if !hasCap || allStop(Normalize(epithet)) {
			epithet = ""
		}
	}
	return name, epithet, true
}

// allStop reports whether every word of the normalised s is a stop word or
// a number (or s is empty).
func allStop(s string) bool {
	for _, w := range strings.Fields(s) {
		if !isStop(w) && !particles[w] && !isNumber(w) {
			return false
		}
	}
	return true
}

func isNumber(w string) bool {
	for i := 0; i < len(w); i++ {
		if w[i] < '0' || w[i] > '9' {
			return false
		}
	}
	return w != ""
}

// junkName reports names that are never entities when they come from links,
// headings or heuristics: only stop words and numbers, a session word
// alone or followed by numbers ("Sesión 12"), a real month or weekday.
func junkName(name string) bool {
	k := Normalize(name)
	if allStop(k) {
		return true
	}
	f := strings.Fields(k)
	if sessionWords[f[0]] && allStop(strings.Join(f[1:], " ")) {
		return true
	}
	if len(f) == 1 && (calendarWords[f[0]] || honorifics[f[0]]) {
		return true
	}
	return false
}
