// Package weaviate keeps Oráculo's index in a Weaviate cluster: the
// scale-out implementation of [store.Store], beside the embedded SQLite one
// in [github.com/oraculo/oraculo/index], talking to the cluster through the
// official client (github.com/weaviate/weaviate-go-client/v5). [Open] gives
// a [Store] on one tenant of the cluster ([Config.Tenant], the index name)
// reached through one node ([Config.URL]). Everything the engine reads or
// writes is in the cluster: any number of servers given the same tenant
// answer the same questions the same way, and none keeps a local index.
//
// What it guarantees, tested against real nodes (internal/weaviatetest):
//   - The answers of SQLite's store for every role the engine uses (notes,
//     chunks, catalogue, filters, settings, vectors, annotations,
//     compendium, long-term memory) on the same notes, chunks compared by
//     their keys; [ErrUnreachable] when no node answers, [ErrNoIndex] when
//     [Config.Existing] finds no ingest in the tenant.
//   - Visibility fails closed: a chunk is DM-only unless it and its note
//     are marked public and the note is not pending, and every chunk a
//     vector search finds is checked as it is now, so a player never gets
//     a DM-only chunk, even from objects an interrupted write left behind.
//     A note that becomes DM-only hides itself and withholds the players'
//     compendium before anything else is written.
//   - Writes are idempotent: object ids derive from the notes' roots and
//     paths and the chunks' keys, so an unchanged rerun writes nothing and
//     the next ingest finishes what an interrupted one left.
//   - On replicated collections ([Config.Replication]) every write and
//     every query is at consistency QUORUM ([Consistency]): with one node
//     of three down, a store on either survivor reads and writes with no
//     error; a delete and a write of one object are resolved by time, the
//     later winning (keep the clocks of hosts and nodes in step).
//   - Long-term memory keeps one active entry per scope and key and never
//     hands out again an id once given (even forgotten), with writers in
//     any number of processes, whatever the timing; racing writers never
//     take one id, and exactly one of them is told it won, when their
//     writes land within 300 ms of each other.
//
// What it does not do:
//   - Transactions. While a note is replaced a reader may see chunks of
//     both versions (a search may meet [store.ErrMissingParent]);
//     PutEmbeddings, Redecide and the compendium's update
//     are not all or none (the players' compendium stays withheld until
//     an update finishes).
//   - Fail over: a store talks to one node, and while it is down every
//     call fails; a node that comes back answers from its own copy until
//     replication has brought it what it missed.
//   - Keep Oráculo's own vector graph: the cluster indexes the vectors it
//     is given, and the dense path asks it ([Store.SearchVectors]).
//   - Score BM25 on SQLite's scale (Weaviate's IDF differs; rankings agree
//     closely, scores are not comparable), or bound a search's work by a
//     match budget.
//   - Answer the catalogue and some of the compendium's reads in constant
//     time: they read objects in proportion to the index.
//
// docs/weaviate.md says how to run a cluster for Oráculo, how the objects
// are laid out and why, every difference from SQLite, and what was built
// and measured when.
package weaviate
