// Package weaviate keeps Oráculo's index in a Weaviate cluster: the
// scale-out implementation of [github.com/oraculo/oraculo/store] (issue
// 17), beside the embedded SQLite one in
// [github.com/oraculo/oraculo/index]. It talks to the cluster with the
// official client, github.com/weaviate/weaviate-go-client/v5.
//
// # State (issue 17, fifth session)
//
// Every command that reads or writes the index opens it with --backend
// weaviate --weaviate-url URL [--collection NAME] (or $ORACULO_BACKEND,
// $ORACULO_WEAVIATE_URL; an API key in $ORACULO_WEAVIATE_KEY), the
// collection being the tenant (cmd/oraculo/backend.go, fifth session).
// Nothing local is then read or written: ingest, search, ask, chat,
// eval, bench, mcp and serve leave the home, working and temporary
// folders empty, and two serve processes on one cluster give the same
// answers and citations, open each other's signed links, see each
// other's ingests, and never show a player a DM-only note (tested with
// the real binary against a real node). Done, and tested against a real
// node (internal/weaviatetest; CI installs weaviate-server v1.35.2):
//   - [store.DocumentWriter]: [Store.DocumentStates],
//     [Store.ReplaceDocument], [Store.ReplaceDocuments],
//     [Store.DeleteDocument], [Store.Redecide] (the same notes change
//     audience as in SQLite); [github.com/oraculo/oraculo/ingest.Update]
//     runs on it unchanged, and an unchanged rerun writes nothing;
//   - [store.Settings]: Meta and SetMeta, one object per key, Meta
//     reading it by id (the engine reads "generation" before every
//     search: 0.3 ms on one local node, 0.9 ms as a filtered query); and
//     [Store.MetaOnce], a setting created once, the same value for every
//     racing creator (the link key every server of an index shares);
//   - [store.ChunkReader]: Chunks, ChunksFound, ChunkByUID, ListChunks,
//     the same chunks as SQLite's for the sample campaign (ids aside);
//   - [store.KeywordSearcher]: SearchBM25 with SQLite's small-to-big
//     paragraph aggregation, visibility and [store.Filter] (sessions,
//     folders, tags) in the query; TermUsed;
//   - [store.Catalog] (second session): Stats, Sessions, Units, Roots,
//     NoteSources, DMOnlyCounts, and [store.ChunkFilter]: FilterChunks,
//     RestrictedChunks; for the sample campaign the same answers as
//     SQLite's (chunk ids compared by UID), for the DM and for players,
//     and nothing in another tenant;
//   - [store.VectorStore] (third session): PendingEmbeddings,
//     PutEmbeddings, LoadVectors, VectorIDs, VectorRows, PruneEmbeddings,
//     EmbeddingCounts, the same answers as SQLite's for the sample's
//     chunks embedded by the model-free hashing embedder; the graph
//     methods do nothing (see Layout); and [Store.SearchVectors], the
//     dense path's approximate search through Weaviate's nearVector;
//   - [store.AnnotationStore] (fourth session): PendingAnnotations,
//     PutAnnotation (an empty text refused), Annotations,
//     PruneAnnotations, AnnotationCounts, the same answers as SQLite's
//     (chunks compared by UID) before and after annotating, after a
//     chunk's text changes and a note is deleted, and nothing in another
//     tenant;
//   - [store.EntityStore] (fifth session), so that a Store is a whole
//     [store.Store] and the engine runs on it
//     ([github.com/oraculo/oraculo.OpenStore]): the compendiums an
//     engine's ingests build are SQLite's for the sample campaign
//     (Entities and EntityCount per scope, MentionsOf for the DM and for
//     players, by chunk UID), after a first ingest, after an incremental
//     one (a note changed, one removed, one made DM-only, whose entity
//     players never get while it is) and after an update cut short; and
//     (TestCompendiumScale, ORACULO_WEAVIATE_LONG=1) on 2000 synthetic
//     chunks with 4769 entities. The engine's ingest of those takes 11
//     to 17 s here (runs differ on a shared machine), 1.7 to 2 s in
//     SQLite; of Weaviate's, the compendium's update about 3 s and the
//     notes' writes (ReplaceDocuments) 6.5 s;
//   - the dense path (fifth session): [Store.SearchVectors] is a
//     [store.VectorSearcher], and the engine's dense path asks it (one
//     nearVector query with a small where clause, then two reads by the
//     texts found) instead of loading vectors or building a graph; ingest
//     builds none. Each vector object carries what its text's chunks let
//     a search filter on (see Layout), kept by ReplaceDocuments,
//     DeleteDocument, Redecide and PutEmbeddings.
//   - what the engine's dense stage decides by (issue 26): MissingVectors
//     counts the chunks without a vector from the chunks and vectors held,
//     and ChunksVersion, a setting given a fresh random value before and
//     after every write or removal of chunks; ingest skips the stage only
//     when no chunk lacks a vector and that version is the one at which
//     the stage last finished (it used to read a setting only SQLite
//     kept, so a note added after the first ingest never got a vector).
//     TestEngineLaterNotes: a note added, edited or removed after the
//     first ingest, on SQLite and on a node.
//   - replication (fifth session): [Config.Replication] and consistency
//     QUORUM on writes and on queries of replicated collections (see
//     Layout); on a three-node cluster with factor 3 (TestReplication)
//     the sample ingested by the engine, a node stopped, the golden
//     questions searched through the store (for the DM and for players),
//     chunks read by UID and Stats counted through either survivor with
//     no error, the same counts and the same Recall@8 and MRR@50, and
//     the engine ([github.com/oraculo/oraculo.OpenStore]) on each
//     survivor searching (DM and players, no DM-only note to players)
//     and asking (extractive answers) as with every node up; a change
//     ingested by the engine while it is down (a note edited, one
//     deleted, one added), and once it is back every node, read alone at
//     consistency ONE, holds the same objects (counts per collection,
//     every chunk) and as many notes, chunks and paragraphs as SQLite's
//     ingest of the same notes, and a store on each answers with the
//     change, the deleted note not come back; then the node a store talks
//     to stopped, that store failing, and engines on the two others
//     answering.
//   - [store.MemoryStore] (sixth session): AddMemory, Memory, Memories,
//     MemoryChain, VerifyMemory, SupersedeMemory, ForgetMemory and
//     NoteVersion, with SQLite's invariants and messages (see Memory),
//     tested against a real node (TestMemory: the checks, one active
//     entry per key, supersede chains, verify with and without a source,
//     forget, ids never reused, order, note sources, tenants, racing
//     adds and supersedes from separate clients), and on three nodes
//     with factor 3, each step through another node
//     (TestMemoryReplicated).
//
// Through the whole engine (TestEngineParity: no embedder, so BM25 and
// the entity path), the eval harness gives Recall@8 / MRR@50:
//   - sample campaign, 58 questions: BM25 0.931 / 0.655 on SQLite,
//     0.931 / 0.647 here; entity path 0.690 / 0.460 on both; both paths
//     (the default) 0.948 / 0.678 on SQLite, 0.948 / 0.670 here;
//   - XQuAD-es dev (--max-words 200), 432 questions: BM25 1.000 / 0.968
//     and 1.000 / 0.966; entity path 0.093 / 0.059 and 0.093 / 0.056;
//     both 1.000 / 0.966 and 1.000 / 0.963. Ingesting it (16 notes, 94
//     chunks) takes 0.3 s here, 0.04 s in SQLite.
//
// On the golden questions (64, hashing/v2 vectors of 384 dimensions, 86
// chunks and three more notes, two sharing a text, one of them DM-only)
// SearchVectors' top 10 holds every chunk of the exact cosine top 10 over
// SQLite's vectors restricted by SQLite's RestrictedChunks and
// FilterChunks: recall@10 1.000, for the DM and for players, with every
// kind of filter, after a Redecide hides a note and shows it again, a
// note is replaced and one removed. A player's search is three requests
// naming at most the texts found (the old where clause listed the 84
// texts players may see). Through the engine, the dense path alone gives
// SQLite's Recall@8 0.862 and MRR@50 (0.624 for the DM, 0.638 for
// players), the same top 10s. The sample is small: a DM's unfiltered
// search walks an HNSW graph of 86 vectors, and a filtered one (a
// players' included) is an exact scan (fewer allowed objects than
// Weaviate's flatSearchCutoff); the recall of a large index is still to
// be measured (BENCHMARKS).
//
// On the sample campaign's golden questions the keyword path alone gives
// Recall@8 0.931 and MRR@50 0.587 on both backends (2 of 58 questions
// move their first relevant chunk, one up and one down).
//
// Next: BENCHMARKS.md has ingest and query latency at 10k and 100k
// chunks for both backends; what grows with the index is listed under
// Differences.
//
// # Layout
//
// Nine collections, OraculoDocument, OraculoChunk, OraculoParagraph,
// OraculoSetting, OraculoAnnotation, OraculoEntity, OraculoMention,
// OraculoNoteFacts and OraculoNoteState (and the memory's three, see
// Memory), each multi-tenant with one
// tenant per index name ([DefaultTenant] "oraculo"), no vectorizer,
// BM25 with FTS5's k1 = 1.2 and b = 0.75 and no
// stop words. Object ids are version-5 UUIDs of the note's root and path,
// the chunk's key (its id with the folder's absolute path, as public ids
// were before they became relative to the folder: two folders holding the
// same note keep two sets of objects) and the paragraph's ordinal, so a
// rerun writes the same objects; notes keep their content hash and stamp,
// chunks their text hash and embedding hash. Chunk ids are the first 53
// bits of the sha256 of the key ([ChunkID]). A chunk answers to its
// public id and to its key, the id links and memory entries made before
// name. Every chunk and paragraph
// carries its note's visibility; a players' search keeps only paragraphs
// marked public, so one without it (never written so) is DM-only: fail
// closed.
//
// Vectors are in one more collection per model, OraculoVector followed
// by 16 hex digits of the sha256 of the model's name (Weaviate's class
// names take no "/" or "-"), created by the model's first PutEmbeddings:
// one object per embedded text, keyed as in SQLite by the embedding hash
// (a version-5 UUID of model and hash, so storing a vector again replaces
// it), holding the hash, the model and Oráculo's vector in an HNSW index
// by cosine distance, no vectorizer. Each also holds, for a vector
// search's where clause, what the chunks using its text let a search
// filter on: public (some chunk using it is public now: it and its note
// marked public, the note not pending), the chunks' sessions, their
// notes' paths with every folder above them (lowercased), and their
// notes' tags. A collection per model, not named
// vectors on the chunks: a vector index has one number of dimensions, a
// model is counted, pruned or dropped alone, and a chunk rewritten by an
// ingest (whose text, hence hash, did not change) keeps its vector
// without being embedded again, as in SQLite. The cluster builds its own
// index as vectors are written, so Oráculo's graph is not stored:
// SaveGraph, SaveHNSW and DeleteGraph do nothing, LoadGraph and
// GraphReader say there is none.
//
// Annotations (the chat model's one-line descriptions of chunks) are
// keyed as in SQLite by the chunk's embedding hash, the model and the
// prompt version: one object per key, its id a version-5 UUID of the
// three, so storing one again replaces it and a chunk rewritten by an
// ingest with the same text keeps its annotation. One collection for
// every model (an annotation has no vector), read by chunk through the
// chunks' hashes.
//
// Every collection Open creates has [Config.Replication] copies of each
// tenant (0: the cluster's default, 1 unless it sets
// REPLICATION_MINIMUM_FACTOR; 3 on a cluster of three puts a copy on
// every node), asynchronous replication (a node compares its copy with
// the others' and copies what it lacks or holds older) and time-based
// resolution of deletes (TimeBasedResolution: the later of a write and a
// delete wins, so a note deleted while a node was down does not come back
// with it, and an object written again after a delete stays; Weaviate's
// default, NoAutomatedResolution, would leave both). Open fails on an
// existing collection with another factor than the one asked, or,
// replicated, without those two, naming the collection, the factor it
// has and the one asked; Replication 0 takes collections as they are.
// Every write, and every query on a replicated collection, is at
// consistency QUORUM ([Consistency]), a majority of the copies: 2 of 3,
// so with one node of three down every read and write still succeeds. A
// write (batch, batch delete, merge) returns once a quorum holds it. A
// query (search, listing, lookup by property) is answered from the copy
// of the node the store talks to, and the objects it returns are
// compared with a quorum's, a stale copy repaired (read repair, for the
// next query: the answer already sent is the node's own). Aggregate (the
// paragraph count of Stats) takes no level and counts the node's copy.
// A collection of one copy gets no level on queries (Weaviate's GraphQL
// takes none there); the store reads each collection's factor once.
//
// The compendium: one OraculoEntity object per entity and scope ("dm",
// "player"), its id ([EntityID]) and object id derived from scope and
// name, so an entity that stays keeps its id; one OraculoMention object
// per scope and chunk that names any of its entities: their ids (a
// filterable list, which MentionsOf asks with ContainsAny) and counts,
// the chunk's note key and generation (a new version of the note deletes
// it with the chunks it replaces) and a bucket (16 bits of the chunk id,
// a range index) by which many are read a page at a time. One object per
// chunk rather than per entity and chunk: an update writes a tenth of
// the objects (on 2000 synthetic chunks, 4000 instead of 66 000, and the
// mentions' writes went from 9.6 s to 1.0 s). What the compendium read
// from a note is in OraculoNoteFacts (its encoded facts and lowercase
// words, as blobs, with the note's
// generation: facts of another version are not the note's), and
// whether its mentions are stored, with the visibility they were stored
// under, in OraculoNoteState: small objects that an update rewrites whole
// in batches, apart from the facts, which it never reads back.
//
// Paragraphs hold Oráculo's analysed terms (the same analyser as SQLite's
// for the index's language: Weaviate has no Spanish stemming or accent
// folding) in whitespace-tokenized properties: the heading path's terms,
// the paragraph's, and both together. With the default heading weight a
// search ranks the combined property, which is FTS5's model (term
// frequencies over heading and body, one length for both).
//
// # Memory
//
// Long-term memory ([store.MemoryStore], [Store.AddMemory] and the rest)
// is in three collections of the store's tenant, so two indexes
// (--collection) never see each other's memory:
//   - OraculoMemory, one object per entry, its object id a version-5 UUID
//     of the entry's id: every field but whether it is active;
//   - OraculoMemorySlot, one object per (scope, key) that has an active
//     entry, its object id derived from scope and key, holding that
//     entry's id: an entry is active exactly when the slot of its scope
//     and key names it;
//   - OraculoMemoryId, one object per id ever handed out, holding the id
//     and the token of the writer that took it (nothing of the entry),
//     never deleted; and a counter object, the number the next id is
//     looked for from (a hint: a stale one costs a few reads).
//
// Weaviate has no transactions, and creating an object whose id exists
// is refused but checked and then written in two steps: two writers
// creating one object at the same moment may both be accepted, the later
// write winning (see [Store.MetaOnce]). So an id and a slot are taken as
// MetaOnce takes a setting: created (POST), then read back until they
// have kept their value for 300 ms; the writer whose token or entry id
// the object then holds has it, the others try the next id, or are told
// which entry is active (AddMemory: the entry each stored first is
// deleted). A supersede stores the new entry, reads the slot again, and
// if it still names the old entry writes the new one's id in it (a
// merge) and lets it settle the same way: the writer whose entry it
// holds wins, the others delete theirs and are told the old entry is no
// longer active. A forget frees the slot only when it names the entry
// (a filtered delete), clears the Supersedes that name it, and deletes
// the entry last.
//
// Guaranteed whatever the timing, with writers in any number of
// processes and any of them dying half-way:
//   - a (scope, key) never has two active entries: one object holds one
//     id;
//   - an id once handed out (even forgotten) is never handed out again:
//     its OraculoMemoryId object stays, and a writer takes only an id
//     whose object does not exist;
//   - a forget brings no entry back active: no writer ever puts an older
//     id in a slot.
//
// Guaranteed when the racing writes of one object land within 300 ms of
// each other (each is one request; Weaviate's own check-then-write race
// lies within one), and a supersede's second read of a slot and its
// write to it too:
//   - two writers never take the same id;
//   - of writers adding one (scope, key) at once exactly one succeeds,
//     the others being told its entry; of writers superseding one entry
//     at once exactly one succeeds; the entry of a writer told it
//     succeeded is the active one.
//
// A writer paused longer than that (a process stopped for seconds
// between two requests) may be told it succeeded when it did not: its
// entry is then inactive, or, for an id taken twice, the later writer's
// entry replaces the earlier's. TestMemory/RacingAdds races eight
// stores, each with its own client, on one (scope, key): without the
// settling about one round in 25 let two adds succeed; with it none of
// 60 did (ORACULO_WEAVIATE_LONG=1).
//
// Not guaranteed: atomicity (a writer that dies between its steps
// leaves an entry no slot names, inactive, which Memories lists with
// all; its id is not handed out again; a forget cut short is finished by
// the next), and isolation (while an add or a supersede settles, a reader
// may see its entry inactive, then active or gone). A forget racing a
// supersede of the same entry may leave the new entry naming the
// forgotten one (MemoryChain stops there). Each add and supersede waits
// for two settlings (about 0.7 s on one local node); Memories reads every
// entry and slot of the scope (every one when it is empty).
//
// # Differences from SQLite
//
//   - No transactions. A note is replaced by writing its new objects,
//     then deleting those of other generations, then its own object (which
//     holds the hash an ingest compares): an interrupted write is redone
//     by the next ingest, but while a note is replaced a reader may see
//     chunks of both versions, and a search racing a replacement may meet
//     a paragraph whose chunk just went ([store.ErrMissingParent]).
//   - BM25 scores: Weaviate's IDF is log(1 + (N - n + 0.5)/(n + 0.5)),
//     never zero, where FTS5's is log((N - n + 0.5)/(n + 0.5)), clamped to
//     1e-6 for terms in half the paragraphs or more; scores are on another
//     scale (Match.Score is not comparable across backends). Heading
//     weights other than 1 rank heading and body as two BM25F properties
//     and must be whole numbers.
//   - Equal scores are ordered by root, path, chunk and paragraph
//     ordinal (SQLite: by row id, the same order for a fresh ingest).
//   - No [index.MatchBudget] plan: Weaviate's block-max WAND bounds the
//     work itself; one query scores at most [MaxResults] paragraphs.
//   - Redecide is not all or none: a note whose audience changes is
//     marked pending until its chunks and paragraphs have the new one, and
//     a later Redecide finishes what an interrupted one left; the settings
//     it is given are stored last.
//   - Folder filters use Like in a search: a folder name holding * or ?
//     matches more (FilterChunks compares prefixes, as SQLite does).
//     Folders and paths are lowercased with Unicode's rules (SQLite's
//     lower(), without ICU, folds ASCII letters only).
//   - The catalog reads the objects it counts (a page at a time; the
//     paragraphs are counted by an aggregate), so Stats, Sessions, Units
//     and the chunk filters take time in proportion to the chunks.
//     Stats.Bytes is 0 (the cluster's disks are not measured);
//     Stats.Schema is [SchemaVersion], this layout's version.
//   - Document ids ([DocumentID]) are the first 53 bits of the sha256 of
//     the note's key, stable while the note keeps its root and path.
//   - PutEmbeddings is not all or none: an interrupted write leaves some
//     vectors stored, which the next PendingEmbeddings no longer lists.
//     Weaviate normalises what a cosine index holds: LoadVectors gives
//     unit vectors back within rounding (1e-5), not bit for bit.
//   - SearchVectors filters in two steps. The where clause matches the
//     vector objects' fields (public, and the sessions, folders and tags
//     asked for): what a text's chunks together have, so it lets through
//     more than the filter (a text shared by a public chunk and a DM-only
//     one passes a players' clause: its text is one players may read).
//     Then every chunk using a text found is checked as it and its note
//     are now, by RestrictedChunks' and FilterChunks' rules (fail
//     closed), and when that leaves fewer than k the query asks for four
//     times as many texts, up to [MaxResults]. The check, not the fields,
//     keeps DM-only chunks from players: fields an interrupted write left
//     behind let through too much (dropped by the check) or, for a note
//     made public, too little until the next ingest or Redecide redoes
//     the write. Writers update a text's fields only when they change
//     (one merge per vector object, of every model, before the note's
//     own object or decision is written). Chunks sharing a text share its
//     score (ties by id); a text no chunk uses any more (not pruned yet)
//     is dropped by the check.
//   - The engine builds no vector graph for this store and the view
//     loads no vector: only [github.com/oraculo/oraculo.VectorsExact]
//     (eval's check of the approximate search) reads them all, once per
//     view.
//   - PendingAnnotations, PruneAnnotations and AnnotationCounts read
//     every annotation (of every model; the cursor API takes no filter)
//     and every chunk, a page at a time: in proportion to the index.
//     Pending texts are listed in chunk id order, as PendingEmbeddings'
//     (SQLite: row id order), the same texts.
//   - A store talks to one node, [Config.URL], and fails over to none:
//     while that node is down every call fails with its error (writes
//     after their retries, about 6 s). Stores opened on the other nodes
//     (with factor 3 and one node of three down) answer and write with
//     no error; a load balancer in front of the nodes, or several URLs,
//     is not done.
//   - A node that comes back answers from its own copy as soon as it is
//     ready, before asynchronous replication has brought it what it
//     missed: through it, a search may miss a note added meanwhile, or
//     find a deleted note or a note's old text, until its copy has
//     caught up (read repair fixes only the objects a query returns, for
//     the next query). With Weaviate's defaults the nodes compare copies
//     every 30 s (ASYNC_REPLICATION_FREQUENCY) and copy only what is
//     older than 30 s (ASYNC_REPLICATION_PROPAGATION_DELAY): in the
//     three-node test, the node held the change 36 s after it was ready
//     (40 s after the change was written); the test sets both to 1 s,
//     and then it takes about 1 s. Reads by object id would be QUORUM reads
//     proper; the store reads by query only, but for the memory's
//     objects (read by id at the same level).
//   - Batch deletes carry the time of Oráculo's host: the client's batch
//     deleter sends none, and Weaviate keeps no time in the tombstones of
//     a REST batch delete without one, so time-based resolution cannot
//     order them and a node that missed the delete copies the note back
//     to every node (TestReplication saw it). Keep the hosts' and the
//     nodes' clocks in step (NTP): a skew matters only when a node missed
//     one of a write and a delete of the same object made within the
//     skew of each other.
//   - BM25 statistics are each copy's own (document frequencies and
//     lengths, counting overwritten and deleted objects until Weaviate
//     compacts its segments): after changes, two nodes, or one node
//     before and after a restart, may order near-ties differently. On the
//     sample after the test's change every node gives the same Recall@8
//     (0.931) and MRR@50 (0.587).
//   - [Store.MetaOnce] waits: Weaviate refuses to create an object
//     whose id exists, but checks and then writes in two steps, so two
//     creators at the same moment may both be accepted (4 rounds of 40
//     with 6 racers on one node); a setting just created is read back
//     until it has kept its value for 300 ms, which gives every racer the
//     last write. A process that finds the setting older than that takes
//     it at once.
//   - Long-term memory is kept without transactions (see Memory): ids
//     are taken and a (scope, key)'s active entry is set by creating an
//     object and waiting until it has settled, and an entry's object is
//     deleted on a forget while its id's object stays; NoteVersion is
//     one query on the notes by path, as SQLite's, whatever the root.
//   - [Config.Existing] (the read-only commands) creates nothing: a
//     tenant without the "lang" setting, which every ingest stores first,
//     holds no index ([ErrNoIndex]; SQLite: the file does not exist).
//   - The compendium is updated without a transaction, in an order that
//     leaves players nothing wrong to see: [Store.UpdateCompendium] first
//     withholds the players' compendium ([Store.Entities] gives it
//     empty, PlayersCompendiumStale is true), then writes (mentions of an
//     entity gone before it, a chunk's mentions cleared before they are
//     written again), and Finish's last write serves it again. An update
//     cut short leaves it withheld, and its notes pending: the next
//     ingest rebuilds it (stale) and finds their mentions again. Before
//     the first write that would be left half done where the next update
//     does not look (names changed, mentions of a chunk that is not
//     pending), a setting says so, and the update that finds it finds
//     mentions in every chunk again: either way the same compendium as
//     SQLite's (tested, names changed or not). Meanwhile the DM's
//     compendium may be read half updated. ReplaceEntities works the same
//     way, not all or none.
//   - Players' entities are read between two reads of the compendium's
//     state, given only when both are the same and fresh: an update that
//     starts and finishes during the read cannot give half of one.
//   - A note players may see that is stored again DM-only
//     (ReplaceDocuments reads the notes' visibility first, when any note
//     it stores is DM-only) or decided DM-only (Redecide) withholds the
//     players' compendium before anything marks it DM-only, as in SQLite;
//     SyncCompendiumNotes withholds it too when it finds a note whose
//     facts were stored public DM-only now.
//   - Document ids are stable while a note keeps its place, so a note
//     rewritten keeps its id: its facts are those of its generation, and
//     SyncCompendiumNotes drops (and lists as missing) facts of another
//     one, as SQLite loses them with the rewritten row.
//   - MentionsOf reads the mentions of the entities asked for (one
//     request while they fit in a page; more, by bucket ranges, when not),
//     then at once their chunks (a mention of a chunk gone is left out)
//     and, for players, their notes: 3 to 7 ms for two entities on one
//     local node (the sample, and 2000 synthetic chunks with 4769
//     entities; SQLite, which joins them in one statement, 0.1 to
//     0.2 ms), in proportion to those entities' mentions, never to the
//     index. Dropping an entity rewrites the objects of the chunks that
//     name it.
//   - The compendium's update reads in proportion to the index: every
//     note's object for NoteSourcesOf, PutNoteFacts and the facts
//     listings (document ids cannot be turned back into keys), every
//     chunk's id and note at its first Chunks call (the texts a page at
//     a time), every facts state in SyncCompendiumNotes and Finish; an
//     unchanged ingest reads the notes, the states and the facts' keys,
//     and writes nothing. Entities reads every entity of both scopes (the
//     cursor takes no filter).
//   - Fail closed beyond SQLite: a chunk is DM-only (RestrictedChunks,
//     public Sessions and Units) unless it and its note are marked public
//     and the note is not pending; a chunk whose note object is missing is
//     DM-only and is in no note of NoteSources; a pending note counts as
//     DM-only in DMOnlyCounts ("unknown" when it has no reason).
package weaviate
