package weaviate

import (
	"context"
	"fmt"
	"strings"

	"github.com/weaviate/weaviate/entities/models"
)

// The collections, one per kind of object. Every one is multi-tenant: a
// tenant per index name.
const (
	documentClass  = "OraculoDocument"
	chunkClass     = "OraculoChunk"
	paragraphClass = "OraculoParagraph"
	settingClass   = "OraculoSetting"
	// annotationClass holds the chat model's annotations of chunk texts.
	annotationClass = "OraculoAnnotation"
	// The compendium: entities by scope, where each is mentioned, and
	// what it read from each note (its facts, and their state).
	entityClass     = "OraculoEntity"
	mentionClass    = "OraculoMention"
	factsClass      = "OraculoNoteFacts"
	factsStateClass = "OraculoNoteState"
	// Long-term memory: its entries, the active entry of each (scope,
	// key), and the ids handed out (see memory.go).
	memoryClass     = "OraculoMemory"
	memorySlotClass = "OraculoMemorySlot"
	memoryIDClass   = "OraculoMemoryId"
)

// Property names shared by the collections.
const (
	propDocKey       = "docKey"
	propGen          = "gen"
	propRoot         = "root"
	propPath         = "path"
	propPathLower    = "pathLower"
	propTags         = "tags"
	propTitle        = "title"
	propVisibility   = "visibility"
	propPublic       = "public"
	propChunkID      = "chunkId"
	propUID          = "uid"
	propOrdinal      = "ordinal"
	propChunkOrdinal = "chunkOrdinal"
	propSession      = "session"
	propInSession    = "inSession"
	propHeadings     = "headings"
	propLabel        = "label"
	propWordStart    = "wordStart"
	propWordEnd      = "wordEnd"
	propByteStart    = "byteStart"
	propByteEnd      = "byteEnd"
	propPageStart    = "pageStart"
	propPageEnd      = "pageEnd"
	propText         = "text"
	propHash         = "hash"
	propEmbedHash    = "embedHash"
	propTerms        = "terms"
	propHeadingTerms = "headingTerms"
	propAllTerms     = "allTerms"
	propSHA256       = "sha256"
	propSize         = "size"
	propMetadata     = "metadata"
	propDMReason     = "dmReason"
	propDMDetail     = "dmDetail"
	propLink         = "link"
	propFrontRaw     = "frontRaw"
	propStamp        = "stamp"
	propIngestedAt   = "ingestedAt"
	propPending      = "pending"
	propKey          = "key"
	propValue        = "value"
	propPrompt       = "prompt"
	propCreatedAt    = "createdAt"
	propEntityID     = "entityId"
	propScope        = "scope"
	propName         = "name"
	propKind         = "kind"
	propAliases      = "aliases"
	propNote         = "note"
	propSource       = "source"
	propEntities     = "entities"
	propCounts       = "counts"
	propBucket       = "bucket"
	propFacts        = "facts"
	propLower        = "lower"
	propRestricted   = "restricted"
	propMatched      = "matched"
	propMemID        = "memId"
	propStatus       = "status"
	propSupersedes   = "supersedes"
	propCreated      = "created"
	propAuthor       = "author"
	propClaim        = "claim"
	propSeq          = "seq"
)

// property kinds: what a property is used for decides how it is indexed.
func stored(name, dataType string) *models.Property { // read back, never searched
	return &models.Property{Name: name, DataType: []string{dataType}, IndexFilterable: ptr(false), IndexSearchable: ptr(false), IndexRangeFilters: ptr(false)}
}

func filterable(name, dataType string) *models.Property { // matched whole in filters
	p := &models.Property{Name: name, DataType: []string{dataType}, IndexFilterable: ptr(true), IndexRangeFilters: ptr(false)}
	if dataType == "text" || dataType == "text[]" {
		p.Tokenization = models.PropertyTokenizationField
		p.IndexSearchable = ptr(false)
	}
	return p
}

// terms are Oráculo's analysed terms, space-separated: Weaviate only
// splits them (it has no Spanish analysis; Oráculo's analyser feeds it).
func terms(name string) *models.Property {
	return &models.Property{Name: name, DataType: []string{"text"}, Tokenization: models.PropertyTokenizationWhitespace,
		IndexSearchable: ptr(true), IndexFilterable: ptr(false), IndexRangeFilters: ptr(false)}
}

// rangeable is an int matched by ranges.
func rangeable(name string) *models.Property {
	return &models.Property{Name: name, DataType: []string{"int"}, IndexFilterable: ptr(false), IndexSearchable: ptr(false), IndexRangeFilters: ptr(true)}
}

func ptr[T any](v T) *T { return &v }

// classes returns the collections' definitions.
func classes() []*models.Class {
	common := func(name, desc string, props ...*models.Property) *models.Class {
		return &models.Class{
			Class: name, Description: desc, Vectorizer: "none",
			MultiTenancyConfig: &models.MultiTenancyConfig{Enabled: true},
			// FTS5's parameters, and no stop words: the analyser removed
			// them already, and Weaviate's English list holds Spanish
			// words ("a", "no").
			InvertedIndexConfig: &models.InvertedIndexConfig{
				Bm25:      &models.BM25Config{K1: 1.2, B: 0.75},
				Stopwords: &models.StopwordConfig{Preset: "none"},
			},
			Properties: props,
		}
	}
	return []*models.Class{
		common(documentClass, "Oráculo: one note, its visibility and content hash",
			filterable(propDocKey, "text"), filterable(propRoot, "text"), filterable(propPath, "text"),
			stored(propSHA256, "text"), stored(propSize, "int"), stored(propTitle, "text"), stored(propMetadata, "text"),
			stored(propVisibility, "text"), filterable(propPublic, "boolean"), stored(propDMReason, "text"),
			stored(propDMDetail, "text"), stored(propLink, "text"), stored(propFrontRaw, "text"), stored(propStamp, "text"),
			stored(propIngestedAt, "int"), filterable(propGen, "text"), filterable(propPending, "boolean")),
		common(chunkClass, "Oráculo: one chunk of a note, what answers cite",
			filterable(propChunkID, "text"), filterable(propUID, "text"), filterable(propDocKey, "text"), filterable(propGen, "text"),
			filterable(propRoot, "text"), filterable(propPath, "text"), stored(propTitle, "text"), stored(propVisibility, "text"),
			filterable(propPublic, "boolean"), stored(propOrdinal, "int"), filterable(propSession, "int"),
			stored(propInSession, "boolean"), stored(propHeadings, "text"), stored(propLabel, "text"),
			stored(propWordStart, "int"), stored(propWordEnd, "int"), stored(propByteStart, "int"), stored(propByteEnd, "int"),
			stored(propPageStart, "int"), stored(propPageEnd, "int"), stored(propText, "text"), stored(propHash, "text"),
			filterable(propEmbedHash, "text")),
		common(paragraphClass, "Oráculo: one paragraph of a chunk, the unit keyword search matches",
			filterable(propChunkID, "text"), filterable(propDocKey, "text"), filterable(propGen, "text"),
			stored(propRoot, "text"), stored(propPath, "text"), filterable(propPathLower, "text"), filterable(propTags, "text[]"),
			filterable(propPublic, "boolean"), filterable(propSession, "int"), stored(propChunkOrdinal, "int"),
			stored(propOrdinal, "int"), stored(propByteStart, "int"), stored(propByteEnd, "int"),
			terms(propHeadingTerms), terms(propTerms), terms(propAllTerms)),
		common(settingClass, "Oráculo: one stored setting", filterable(propKey, "text"), stored(propValue, "text")),
		common(annotationClass, "Oráculo: a chat model's annotation of one chunk text, by model and prompt version",
			filterable(propHash, "text"), filterable(propModel, "text"), filterable(propPrompt, "text"),
			stored(propText, "text"), stored(propCreatedAt, "int")),
		common(entityClass, "Oráculo: one entity of a compendium scope",
			filterable(propEntityID, "text"), filterable(propScope, "text"), stored(propName, "text"), stored(propKind, "text"),
			stored(propAliases, "text"), stored(propNote, "text"), stored(propSource, "text")),
		common(mentionClass, "Oráculo: the entities of a compendium scope one chunk names, and how many times",
			filterable(propScope, "text"), filterable(propChunkID, "text"), filterable(propEntities, "text[]"),
			stored(propCounts, "int[]"), filterable(propDocKey, "text"), filterable(propGen, "text"), rangeable(propBucket)),
		common(factsClass, "Oráculo: what the compendium read from one version of a note",
			filterable(propDocKey, "text"), stored(propGen, "text"), stored(propFacts, "blob"), stored(propLower, "blob")),
		common(factsStateClass, "Oráculo: whether a note's mentions are stored, and its visibility when they were",
			filterable(propDocKey, "text"), stored(propGen, "text"), stored(propRestricted, "boolean"), stored(propMatched, "boolean")),
		common(memoryClass, "Oráculo: one entry of long-term memory",
			filterable(propMemID, "text"), filterable(propScope, "text"), filterable(propKey, "text"), stored(propValue, "text"),
			stored(propSource, "text"), stored(propStatus, "text"), filterable(propSupersedes, "text"), stored(propCreated, "text"),
			stored(propAuthor, "text")),
		common(memorySlotClass, "Oráculo: the active memory entry of one scope and key",
			filterable(propScope, "text"), filterable(propKey, "text"), filterable(propMemID, "text")),
		common(memoryIDClass, "Oráculo: a memory id handed out (never again), and the next one to try",
			stored(propMemID, "text"), stored(propClaim, "text"), stored(propSeq, "int")),
	}
}

// ensureSchema creates the collections that are missing and the tenant in
// each. Another process doing the same meanwhile is no error.
func (s *Store) ensureSchema(ctx context.Context) error {
	for _, c := range classes() {
		exists, err := s.client.Schema().ClassExistenceChecker().WithClassName(c.Class).Do(ctx)
		if err != nil {
			return fmt.Errorf("checking collection %q: %w", c.Class, err)
		}
		if !exists {
			if err := s.client.Schema().ClassCreator().WithClass(s.replicated(c)).Do(ctx); err != nil {
				again, cerr := s.client.Schema().ClassExistenceChecker().WithClassName(c.Class).Do(ctx)
				if cerr != nil || !again {
					return fmt.Errorf("creating collection %q: %w", c.Class, err)
				}
			}
		}
		if err := s.checkReplication(ctx, c.Class); err != nil {
			return err
		}
		has, err := s.client.Schema().TenantsExists().WithClassName(c.Class).WithTenant(s.tenant).Do(ctx)
		if err != nil {
			return fmt.Errorf("checking tenant %q of %q: %w", s.tenant, c.Class, err)
		}
		if has {
			continue
		}
		err = s.client.Schema().TenantsCreator().WithClassName(c.Class).WithTenants(models.Tenant{Name: s.tenant}).Do(ctx)
		if err != nil && !strings.Contains(strings.ToLower(err.Error()), "exist") {
			return fmt.Errorf("creating tenant %q of %q: %w", s.tenant, c.Class, err)
		}
	}
	return nil
}

// blockMaxWarning checks how the cluster ranks BM25 over paragraphs.
// Weaviate v1.35.2's BlockMax WAND (the default, USE_INVERTED_SEARCHABLE
// unset) gives the terms still in a memtable no upper bound, so a limited
// BM25 query prunes recently written matches (weaviate/weaviate#11780):
// after an ingest the keyword path misses the notes just written until
// Weaviate flushes them. It returns the warning to show, or "".
func (s *Store) blockMaxWarning(ctx context.Context) (string, error) {
	c, err := s.client.Schema().ClassGetter().WithClassName(paragraphClass).Do(ctx)
	if err != nil {
		return "", fmt.Errorf("reading collection %q: %w", paragraphClass, err)
	}
	if c.InvertedIndexConfig == nil || !c.InvertedIndexConfig.UsingBlockMaxWAND {
		return "", nil
	}
	return fmt.Sprintf("collection %q ranks BM25 with BlockMax WAND, which in Weaviate %s can leave out notes just written "+
		"(weaviate/weaviate#11780): start every node with USE_INVERTED_SEARCHABLE=false before the first ingest "+
		"(scripts/weaviate-local.sh does; docs/weaviate.md)", paragraphClass, s.version), nil
}

// Warnings are what the store found wrong with the cluster when it was
// opened but works with: shown to the user, never silently ignored.
func (s *Store) Warnings() []string { return append([]string(nil), s.warnings...) }
