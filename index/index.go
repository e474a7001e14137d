// Package index stores documents, chunks and their children in one SQLite
// file and answers keyword (BM25) queries over FTS5: the embedded
// implementation of [github.com/oraculo/oraculo/store.Store], whose data
// types it uses.
//
// Text analysis happens before the index: callers hand it analysed terms,
// already stemmed and folded, so the FTS5 tokenizer only splits on spaces.
package index

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strconv"

	_ "modernc.org/sqlite" // the pure-Go SQLite driver
)

// ErrNewerSchema is returned when the file was written by a newer Oráculo.
var ErrNewerSchema = errors.New("index schema is newer than this program")

// Index is an open SQLite index file.
type Index struct {
	db    *sql.DB
	path  string
	terms termCounts
	// readOnly, when set, is why the index was opened read-only.
	readOnly *readOnlyError
}

// mmapPragma maps up to 1 GiB of the index file into memory, so that a
// search reads its pages there rather than through a read system call
// each (SQLite's own page cache is 2 MB a connection). Issue 31: at 100k
// chunks a quarter of a keyword search's CPU went to those reads
// (BenchmarkBM25 p50 16.5 and 28.2 ms before, 10.5 and 8.9 after, p95
// 63 and 174 against 36 and 43, alternated on a loaded machine). The
// pages touched count in the process's resident memory as file pages,
// which the system reclaims first.
const mmapPragma = "mmap_size(1073741824)"

// tempStorePragma keeps SQLite's temporary files in memory, chiefly the
// statement journal: a statement that may abort half-way (one of many
// rows, one that fires a trigger, as a chunk's row does) copies each
// page it changes there first, and past 64 KiB that went to a file, a
// write system call a page (issue 31: a tenth of a fresh ingest's CPU).
// What it holds is the pages one statement changes, or a query's
// temporary b-tree.
const tempStorePragma = "temp_store(MEMORY)"

// Open opens (creating if needed) the index file at path and brings its
// schema up to date. An existing file that cannot be written (a read-only
// mount, or the file or its folder not writable) is opened read-only:
// see [OpenReadOnly].
func Open(ctx context.Context, path string) (*Index, error) {
	if path == "" {
		return nil, errors.New("opening index: empty path")
	}
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, fmt.Errorf("creating folder for index %q: %w", path, err)
		}
	}
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return nil, fmt.Errorf("opening index %q: it is a folder, not a file", path)
	}
	if why := unwritable(path); why != "" {
		return openReadOnly(ctx, path, why, folderWritable(filepath.Dir(path)))
	}
	q := url.Values{}
	for _, p := range []string{
		"foreign_keys(1)",
		"journal_mode(WAL)",
		"synchronous(NORMAL)",
		"busy_timeout(10000)",
		mmapPragma,
		tempStorePragma,
	} {
		q.Add("_pragma", p)
	}
	q.Set("_txlock", "immediate")
	db, err := sql.Open("sqlite", "file:"+path+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("opening index %q: %w", path, err)
	}
	ix := &Index{db: db, path: path}
	if err := ix.migrate(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("opening index %q: %w", path, err)
	}
	return ix, nil
}

// Path returns the index file's path.
func (ix *Index) Path() string { return ix.path }

// Close closes the index.
func (ix *Index) Close() error { return ix.db.Close() }

// DB exposes the underlying handle, for benchmarks that compare Oráculo's
// queries with raw SQL on the same file.
func (ix *Index) DB() *sql.DB { return ix.db }

// Meta returns a stored setting, or "" when it is unset.
func (ix *Index) Meta(ctx context.Context, key string) (string, error) {
	var v string
	err := ix.db.QueryRowContext(ctx, `SELECT value FROM meta WHERE key = ?`, key).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("reading setting %q: %w", key, err)
	}
	return v, nil
}

// SetMeta stores a setting.
func (ix *Index) SetMeta(ctx context.Context, key, value string) error {
	_, err := ix.db.ExecContext(ctx,
		`INSERT INTO meta(key, value) VALUES(?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value`, key, value)
	if err != nil {
		return fmt.Errorf("writing setting %q: %w", key, err)
	}
	return nil
}

// migrations[i] brings the schema from version i to i+1. Never edit a
// migration that has shipped; append a new one.
var migrations = []string{
	`CREATE TABLE meta (
		key   TEXT PRIMARY KEY,
		value TEXT NOT NULL
	);
	CREATE TABLE documents (
		id          INTEGER PRIMARY KEY,
		root        TEXT NOT NULL,
		path        TEXT NOT NULL,
		sha256      TEXT NOT NULL,
		size        INTEGER NOT NULL,
		title       TEXT NOT NULL,
		metadata    TEXT NOT NULL,
		visibility  TEXT NOT NULL DEFAULT '',
		stamp       TEXT NOT NULL,
		ingested_at INTEGER NOT NULL,
		UNIQUE (root, path)
	);
	CREATE TABLE chunks (
		id         INTEGER PRIMARY KEY,
		uid        TEXT NOT NULL UNIQUE,
		doc_id     INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
		ordinal    INTEGER NOT NULL,
		session    INTEGER,
		headings   TEXT NOT NULL,
		label      TEXT NOT NULL,
		word_start INTEGER NOT NULL,
		word_end   INTEGER NOT NULL,
		byte_start INTEGER NOT NULL,
		byte_end   INTEGER NOT NULL,
		text       TEXT NOT NULL,
		hash       TEXT NOT NULL
	);
	CREATE INDEX chunks_doc ON chunks(doc_id, ordinal);
	CREATE TABLE children (
		id         INTEGER PRIMARY KEY,
		chunk_id   INTEGER NOT NULL REFERENCES chunks(id) ON DELETE CASCADE,
		ordinal    INTEGER NOT NULL,
		byte_start INTEGER NOT NULL,
		byte_end   INTEGER NOT NULL
	);
	CREATE INDEX children_chunk ON children(chunk_id);
	CREATE VIRTUAL TABLE children_fts USING fts5(
		headings, body,
		tokenize = "ascii",
		content = '', contentless_delete = 1
	);`,
	// v2: vectors for the dense path, keyed by the hash of what was
	// embedded (heading path and text) and the model.
	`ALTER TABLE chunks ADD COLUMN embed_hash TEXT NOT NULL DEFAULT '';
	CREATE INDEX chunks_embed_hash ON chunks(embed_hash);
	CREATE TABLE embeddings (
		hash       TEXT NOT NULL,
		model      TEXT NOT NULL,
		dims       INTEGER NOT NULL,
		vector     BLOB NOT NULL,
		created_at INTEGER NOT NULL,
		PRIMARY KEY (hash, model)
	);`,
	// v3: the approximate vector graph, built at ingest and loaded by
	// searches, so that no process rebuilds it.
	`CREATE TABLE ann_graphs (
		model    TEXT PRIMARY KEY,
		vectors  INTEGER NOT NULL,
		graph    BLOB NOT NULL,
		built_at INTEGER NOT NULL
	);`,
	// v4: the compendium (who and what the notes name) and where each
	// entity is mentioned; derived data, rebuilt at every ingest.
	`CREATE TABLE entities (
		id      INTEGER PRIMARY KEY,
		name    TEXT NOT NULL UNIQUE,
		kind    TEXT NOT NULL,
		aliases TEXT NOT NULL,
		note    TEXT NOT NULL,
		source  TEXT NOT NULL
	);
	CREATE TABLE mentions (
		entity_id INTEGER NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
		chunk_id  INTEGER NOT NULL REFERENCES chunks(id) ON DELETE CASCADE,
		count     INTEGER NOT NULL,
		PRIMARY KEY (entity_id, chunk_id)
	);
	CREATE INDEX mentions_chunk ON mentions(chunk_id);`,
	// v5: one-or-two sentence annotations of chunks by a chat model, for
	// the reranker and the summaries block; keyed like vectors by the hash
	// of heading path and text, plus the model and the prompt's version.
	`CREATE TABLE annotations (
		hash       TEXT NOT NULL,
		model      TEXT NOT NULL,
		prompt     TEXT NOT NULL,
		text       TEXT NOT NULL,
		created_at INTEGER NOT NULL,
		PRIMARY KEY (hash, model, prompt)
	);`,
	// v6: who may see what. documents.restricted marks DM-only notes (front
	// matter or a secret folder), recomputed at every ingest; the
	// compendium is kept twice, once per scope ("dm": every note;
	// "player": the notes players may see), and rebuilt at the next ingest.
	`ALTER TABLE documents ADD COLUMN restricted INTEGER NOT NULL DEFAULT 0;
	DROP TABLE mentions;
	DROP TABLE entities;
	CREATE TABLE entities (
		id      INTEGER PRIMARY KEY,
		scope   TEXT NOT NULL,
		name    TEXT NOT NULL,
		kind    TEXT NOT NULL,
		aliases TEXT NOT NULL,
		note    TEXT NOT NULL,
		source  TEXT NOT NULL,
		UNIQUE (scope, name)
	);
	CREATE TABLE mentions (
		entity_id INTEGER NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
		chunk_id  INTEGER NOT NULL REFERENCES chunks(id) ON DELETE CASCADE,
		count     INTEGER NOT NULL,
		PRIMARY KEY (entity_id, chunk_id)
	);
	CREATE INDEX mentions_chunk ON mentions(chunk_id);
	DELETE FROM meta WHERE key = 'compendium_sig';`,
	// v7: visibility is decided in the same write as the note. dm_reason
	// and dm_detail say why a note is DM-only ("" when it is not; "unknown"
	// until decided, which readers treat as DM-only); link is where a
	// symbolic link points; front_raw the text of a front matter that could
	// not be parsed. Notes written before are DM-only until the engine
	// decides them again (visibility_rules), and the players' compendium
	// is not served until it is rebuilt.
	`ALTER TABLE documents ADD COLUMN dm_reason TEXT NOT NULL DEFAULT 'unknown';
	ALTER TABLE documents ADD COLUMN dm_detail TEXT NOT NULL DEFAULT '';
	ALTER TABLE documents ADD COLUMN link TEXT NOT NULL DEFAULT '';
	ALTER TABLE documents ADD COLUMN front_raw TEXT NOT NULL DEFAULT '';
	UPDATE documents SET restricted = 1;
	DELETE FROM meta WHERE key = 'visibility_rules';
	INSERT OR REPLACE INTO meta(key, value) VALUES('players_compendium_stale', '1');`,
	// v8: the vector graph is stored in parts of at most GraphPart bytes,
	// so that a search streams it into memory instead of reading one blob
	// as large as every vector together (and decoding a second copy). A
	// graph stored before is kept as one part until the next ingest
	// stores it again in parts.
	`CREATE TABLE ann_graph_parts (
		model TEXT NOT NULL,
		part  INTEGER NOT NULL,
		data  BLOB NOT NULL,
		PRIMARY KEY (model, part)
	);
	INSERT INTO ann_graph_parts(model, part, data) SELECT model, 0, graph FROM ann_graphs;
	UPDATE ann_graphs SET graph = x'';
	DELETE FROM meta WHERE key LIKE 'graph\_ids/%' ESCAPE '\';`,
	// v9: the compendium is updated, not rebuilt: what it read from each
	// note (compendium.Facts, encoded; its lowercase words apart, being
	// most of the bytes and read only in part) is kept until the note changes,
	// with the visibility the note had when its mentions were stored
	// and whether they are (matched). The next ingest reads every note
	// once more to fill it.
	`CREATE TABLE compendium_notes (
		doc_id     INTEGER PRIMARY KEY REFERENCES documents(id) ON DELETE CASCADE,
		restricted INTEGER NOT NULL,
		matched    INTEGER NOT NULL DEFAULT 0,
		facts      BLOB NOT NULL,
		lower      BLOB NOT NULL
	);
	DELETE FROM meta WHERE key = 'compendium_sig';`,
	// v10: the chunks of a session found through an index: a question that
	// names a session ("en la sesión 53") is filtered to its chunks, which
	// scanned every chunk (at 100k chunks, 55-75 ms for the engine's set
	// of allowed chunks and as much again for each keyword query).
	`CREATE INDEX chunks_session ON chunks(session);`,
	// v11: documents with pages (PDF): the pages each chunk spans, 0 for
	// notes, so that a citation can name its page.
	`ALTER TABLE chunks ADD COLUMN page_start INTEGER NOT NULL DEFAULT 0;
	ALTER TABLE chunks ADD COLUMN page_end INTEGER NOT NULL DEFAULT 0;`,
	// v12: long-term memory (issue 18): what the table has settled, with
	// its scope, source, status and the entry it superseded. At most one
	// active entry per (scope, key), held by the database itself.
	`CREATE TABLE memory (
		id         TEXT PRIMARY KEY,
		scope      TEXT NOT NULL,
		key        TEXT NOT NULL,
		value      TEXT NOT NULL,
		source     TEXT NOT NULL,
		status     TEXT NOT NULL CHECK (status IN ('hypothesis', 'verified')),
		supersedes TEXT NOT NULL DEFAULT '',
		created    TEXT NOT NULL,
		author     TEXT NOT NULL,
		active     INTEGER NOT NULL
	);
	CREATE UNIQUE INDEX memory_active ON memory(scope, key) WHERE active;`,
	// v13: chunk ids relative to the notes folder (store.ChunkUID), so that
	// moving the vault keeps them; migrateChunkUIDs gives every chunk its
	// new id, and keeps each old one in chunk_aliases, which ChunkByUID
	// reads (links already given name old ids), and in memory sources.
	`CREATE TABLE chunk_aliases (
		old TEXT PRIMARY KEY,
		uid TEXT NOT NULL
	) WITHOUT ROWID;`,
	// v14: each note's language (issue 27), recognised at ingest and used
	// for its analysis. The notes stored before were analysed in the
	// index's one language, which they keep until the next ingest. An
	// index whose setting was Spanish (the default, unless chosen, which
	// cannot be told apart) recognises each note's language from then on:
	// its next ingest analyses every note again, in its own language. An
	// index set to English was so by choice, and stays so.
	`ALTER TABLE documents ADD COLUMN lang TEXT NOT NULL DEFAULT '';
	UPDATE documents SET lang = coalesce((SELECT CASE value WHEN 'en' THEN 'en' ELSE 'es' END FROM meta WHERE key = 'lang'), 'es');
	UPDATE meta SET value = 'auto' WHERE key = 'lang' AND value IN ('es', 'spanish', '');
	CREATE INDEX documents_lang ON documents(lang);`,
	// v15 (issue 31, part 3: the first query as fast as the next): the
	// sessions each note has chunks in (-1 for its chunks outside any
	// session), with how many and whether the note is DM-only, so that
	// listing the sessions, or counting what the entity path weighs
	// entities against, reads this small table instead of joining every
	// chunk, text and all, to its note (1.3 s at 300k chunks). Triggers
	// keep it at every write of a chunk and of a note's visibility,
	// whoever writes; a chunk whose note is missing counts as DM-only.
	// (Writers insert and delete chunks: an INSERT OR REPLACE would
	// delete without firing the delete trigger.)
	`CREATE TABLE note_sessions (
		session    INTEGER NOT NULL,
		doc_id     INTEGER NOT NULL,
		restricted INTEGER NOT NULL,
		chunks     INTEGER NOT NULL,
		PRIMARY KEY (session, doc_id)
	) WITHOUT ROWID;
	CREATE INDEX note_sessions_doc ON note_sessions(doc_id);
	INSERT INTO note_sessions(session, doc_id, restricted, chunks)
		SELECT coalesce(k.session, -1), k.doc_id, coalesce(d.restricted, 1), count(*)
		FROM chunks k LEFT JOIN documents d ON d.id = k.doc_id GROUP BY 1, 2;
	CREATE TRIGGER note_sessions_insert AFTER INSERT ON chunks BEGIN
		INSERT INTO note_sessions(session, doc_id, restricted, chunks)
			VALUES(coalesce(new.session, -1), new.doc_id, coalesce((SELECT restricted FROM documents WHERE id = new.doc_id), 1), 1)
			ON CONFLICT(session, doc_id) DO UPDATE SET chunks = chunks + 1;
	END;
	CREATE TRIGGER note_sessions_delete AFTER DELETE ON chunks BEGIN
		UPDATE note_sessions SET chunks = chunks - 1 WHERE session = coalesce(old.session, -1) AND doc_id = old.doc_id;
		DELETE FROM note_sessions WHERE session = coalesce(old.session, -1) AND doc_id = old.doc_id AND chunks <= 0;
	END;
	CREATE TRIGGER note_sessions_move AFTER UPDATE OF session, doc_id ON chunks
		WHEN old.session IS NOT new.session OR old.doc_id != new.doc_id BEGIN
		UPDATE note_sessions SET chunks = chunks - 1 WHERE session = coalesce(old.session, -1) AND doc_id = old.doc_id;
		DELETE FROM note_sessions WHERE session = coalesce(old.session, -1) AND doc_id = old.doc_id AND chunks <= 0;
		INSERT INTO note_sessions(session, doc_id, restricted, chunks)
			VALUES(coalesce(new.session, -1), new.doc_id, coalesce((SELECT restricted FROM documents WHERE id = new.doc_id), 1), 1)
			ON CONFLICT(session, doc_id) DO UPDATE SET chunks = chunks + 1;
	END;
	CREATE TRIGGER note_sessions_visibility AFTER UPDATE OF restricted ON documents
		WHEN old.restricted IS NOT new.restricted BEGIN
		UPDATE note_sessions SET restricted = new.restricted WHERE doc_id = new.id;
	END;
	CREATE TABLE units (
		public   INTEGER PRIMARY KEY,
		sessions INTEGER NOT NULL,
		notes    INTEGER NOT NULL
	);
	INSERT INTO units(public, sessions, notes) VALUES
		(0, (SELECT count(DISTINCT session) FROM note_sessions WHERE session >= 0),
			(SELECT count(*) FROM note_sessions WHERE session = -1)),
		(1, (SELECT count(DISTINCT session) FROM note_sessions WHERE session >= 0 AND restricted = 0),
			(SELECT count(*) FROM note_sessions WHERE session = -1 AND restricted = 0));
	CREATE TRIGGER units_insert AFTER INSERT ON note_sessions BEGIN
		UPDATE units SET
			sessions = sessions + (new.session >= 0 AND NOT EXISTS (SELECT 1 FROM note_sessions
				WHERE session = new.session AND doc_id != new.doc_id AND (public = 0 OR restricted = 0))),
			notes = notes + (new.session = -1)
			WHERE public = 0 OR new.restricted = 0;
	END;
	CREATE TRIGGER units_delete AFTER DELETE ON note_sessions BEGIN
		UPDATE units SET
			sessions = sessions - (old.session >= 0 AND NOT EXISTS (SELECT 1 FROM note_sessions
				WHERE session = old.session AND (public = 0 OR restricted = 0))),
			notes = notes - (old.session = -1)
			WHERE public = 0 OR old.restricted = 0;
	END;
	CREATE TRIGGER units_visibility AFTER UPDATE OF restricted ON note_sessions
		WHEN (old.restricted = 0) != (new.restricted = 0) BEGIN
		UPDATE units SET
			sessions = sessions + (CASE WHEN new.restricted = 0 THEN 1 ELSE -1 END) * (old.session >= 0 AND NOT EXISTS (SELECT 1 FROM note_sessions
				WHERE session = old.session AND doc_id != old.doc_id AND restricted = 0)),
			notes = notes + (CASE WHEN new.restricted = 0 THEN 1 ELSE -1 END) * (old.session = -1)
			WHERE public = 1;
	END;`,
	// v16 (issue 31, edit: an edit costs the note): the compendium's
	// corpus-wide sums kept, not summed again from every note's facts at
	// each update: its capitalised sequences and its lowercase words,
	// over every note (scope 0) and over the DM-only notes (scope 1, which
	// the players' compendium takes away). An update takes away what the
	// notes removed or rewritten added (kept in compendium_gone by the
	// trigger until then) and adds the new notes'. What the builder reads
	// of a note besides (its links, the headings of an entity note) is
	// kept apart in compendium_structure, for the notes that have any.
	// The notes' state is read through an index: the rows, which hold the
	// facts, take a page or more each.
	// The next ingest fills the sums from every note's stored facts once.
	`CREATE TABLE compendium_names (
		scope    INTEGER NOT NULL,
		surface  TEXT NOT NULL,
		flags    INTEGER NOT NULL,
		mentions INTEGER NOT NULL,
		notes    INTEGER NOT NULL,
		idsum    INTEGER NOT NULL,
		PRIMARY KEY (scope, surface, flags)
	) WITHOUT ROWID;
	CREATE TABLE compendium_lower (
		scope INTEGER NOT NULL,
		word  TEXT NOT NULL,
		count INTEGER NOT NULL,
		PRIMARY KEY (scope, word)
	) WITHOUT ROWID;
	CREATE TABLE compendium_gone (
		doc_id     INTEGER PRIMARY KEY,
		restricted INTEGER NOT NULL,
		facts      BLOB NOT NULL,
		lower      BLOB NOT NULL
	);
	CREATE TRIGGER compendium_notes_gone AFTER DELETE ON compendium_notes BEGIN
		INSERT OR REPLACE INTO compendium_gone(doc_id, restricted, facts, lower)
		VALUES (old.doc_id, old.restricted, old.facts, old.lower);
	END;
	CREATE TABLE compendium_structure (
		doc_id INTEGER PRIMARY KEY REFERENCES documents(id) ON DELETE CASCADE,
		data   BLOB NOT NULL
	);
	CREATE INDEX compendium_notes_state ON compendium_notes(matched, restricted);
	INSERT INTO meta(key, value) VALUES('compendium_sums', 'stale')
		ON CONFLICT(key) DO UPDATE SET value = excluded.value;`,
	// v17 (issue 31, second session, part "fixed": an unchanged re-ingest
	// reads no file): the stamp of the file each note was read from (size,
	// modification and change times, device and inode) and the content
	// hash it was stamped with: a stamp counts only while its note holds
	// that content. report is what reading the file reported (JSON), or ''.
	// The note's folder and path are repeated, so that an ingest reads the
	// stamps without the documents' rows.
	`CREATE TABLE file_stamps (
		doc_id  INTEGER PRIMARY KEY REFERENCES documents(id) ON DELETE CASCADE,
		root    TEXT NOT NULL,
		path    TEXT NOT NULL,
		sha256  TEXT NOT NULL,
		size    INTEGER NOT NULL,
		mtime   INTEGER NOT NULL,
		ctime   INTEGER NOT NULL,
		device  INTEGER NOT NULL,
		inode   INTEGER NOT NULL,
		report  TEXT NOT NULL DEFAULT ''
	);`,
}

// migrationCode[i], when set, runs after migrations[i], in the same
// transaction: the part of a migration SQL cannot say.
var migrationCode = map[int]func(context.Context, *sql.Tx) error{
	12: migrateChunkUIDs,
}

// SchemaVersion is the schema version this program writes.
var SchemaVersion = len(migrations)

func (ix *Index) migrate(ctx context.Context) error {
	var version int
	if err := ix.db.QueryRowContext(ctx, `PRAGMA user_version`).Scan(&version); err != nil {
		return fmt.Errorf("reading schema version (is it an SQLite file?): %w", err)
	}
	if version > len(migrations) {
		return fmt.Errorf("%w: file has schema %d, this program knows up to %d", ErrNewerSchema, version, len(migrations))
	}
	if ix.readOnly != nil && version < len(migrations) {
		return fmt.Errorf("%w, and its schema (%d) must first be brought up to date (%d): open it once where it can be written", ix.readOnly, version, len(migrations))
	}
	for v := version; v < len(migrations); v++ {
		tx, err := ix.db.BeginTx(ctx, nil)
		if err != nil {
			return fmt.Errorf("migrating schema to %d: %w", v+1, err)
		}
		// Another process opening the same file may have migrated it
		// meanwhile: read the version again under the write lock.
		var now int
		if err := tx.QueryRowContext(ctx, `PRAGMA user_version`).Scan(&now); err != nil {
			tx.Rollback()
			return fmt.Errorf("migrating schema to %d: %w", v+1, err)
		}
		if now > v {
			tx.Rollback()
			v = now - 1
			continue
		}
		if _, err := tx.ExecContext(ctx, migrations[v]); err != nil {
			tx.Rollback()
			return fmt.Errorf("migrating schema to %d: %w", v+1, err)
		}
		if code := migrationCode[v]; code != nil {
			if err := code(ctx, tx); err != nil {
				tx.Rollback()
				return fmt.Errorf("migrating schema to %d: %w", v+1, err)
			}
		}
		// PRAGMA does not take bound parameters.
		if _, err := tx.ExecContext(ctx, `PRAGMA user_version = `+strconv.Itoa(v+1)); err != nil {
			tx.Rollback()
			return fmt.Errorf("migrating schema to %d: %w", v+1, err)
		}
		if err := tx.Commit(); err != nil {
			return fmt.Errorf("migrating schema to %d: %w", v+1, err)
		}
	}
	return nil
}
