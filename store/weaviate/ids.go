package weaviate

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"strconv"

	"github.com/go-openapi/strfmt"
	"github.com/google/uuid"

	"github.com/oraculo/oraculo/store"
)

// namespace is the UUID namespace of every object this package writes:
// an object's UUID is the version-5 UUID of namespace and what names the
// object, so that writing a note again writes the same objects.
var namespace = uuid.NewSHA1(uuid.NameSpaceURL, []byte("https://github.com/oraculo/oraculo/store/weaviate"))

// documentKey names a note, its root and path, in hex: a key safe in any
// query (GraphQL strings take no \x escapes, which a NUL between root and
// path would need).
func documentKey(root, path string) string {
	sum := sha256.Sum256([]byte(root + "\x00" + path))
	return hex.EncodeToString(sum[:16])
}

// documentUUID is the object id of a note.
func documentUUID(root, path string) strfmt.UUID {
	return strfmt.UUID(uuid.NewSHA1(namespace, []byte("document\x00"+documentKey(root, path))).String())
}

// chunkKey is what names a chunk's objects and its store id: its id with
// the folder's absolute path ([store.RootedChunkUID]), not its public id
// (relative to the folder), so that two folders of one index holding the
// same note keep objects of their own, and objects written before public
// ids were relative keep their ids.
func chunkKey(root, path string, ordinal int, text string) string {
	return store.RootedChunkUID(root, path, ordinal, text)
}

// ChunkIDOf is the store's id of the chunk of the note at path in root
// with that ordinal and text.
func ChunkIDOf(root, path string, ordinal int, text string) int64 {
	return ChunkID(chunkKey(root, path, ordinal, text))
}

// chunkUUID is the object id of the chunk named key (see chunkKey).
func chunkUUID(uid string) strfmt.UUID {
	return strfmt.UUID(uuid.NewSHA1(namespace, []byte("chunk\x00"+uid)).String())
}

// paragraphUUID is the object id of paragraph ordinal of the chunk named
// uid (see chunkKey).
func paragraphUUID(uid string, ordinal int) strfmt.UUID {
	return strfmt.UUID(uuid.NewSHA1(namespace, []byte("paragraph\x00"+uid+"\x00"+strconv.Itoa(ordinal))).String())
}

// settingUUID is the object id of the setting key.
func settingUUID(key string) strfmt.UUID {
	return strfmt.UUID(uuid.NewSHA1(namespace, []byte("setting\x00"+key)).String())
}

// annotationUUID is the object id of the annotation of the text whose
// embedding hash is hash, by model and prompt version.
func annotationUUID(model, prompt, hash string) strfmt.UUID {
	return strfmt.UUID(uuid.NewSHA1(namespace, []byte("annotation\x00"+model+"\x00"+prompt+"\x00"+hash)).String())
}

// idBits is how many bits a chunk id has: 53, so that it survives any
// JSON reader that takes numbers as float64 (JavaScript's included). Among
// a million chunks the chance that two share an id is about 5e-5. The
// cluster keeps it as decimal text: GraphQL's Int has 32 bits, and
// Weaviate answers null for a larger int property.
const idBits = 53

// ChunkID is the store's id of the chunk named uid (see chunkKey): the
// first idBits of its sha256, never 0. It changes when the chunk's
// folder, note, place or text does, and not otherwise.
func ChunkID(uid string) int64 {
	sum := sha256.Sum256([]byte(uid))
	id := int64(binary.BigEndian.Uint64(sum[:8]) & (1<<idBits - 1))
	if id == 0 {
		id = 1
	}
	return id
}

// idText is how a chunk id is stored and filtered on.
func idText(id int64) string { return strconv.FormatInt(id, 10) }

// EntityID is the store's id of the entity named name in a compendium
// scope: the first idBits of the sha256 of both, never 0. An entity keeps
// its id while it keeps its name, and gets it back when it returns.
func EntityID(scope, name string) int64 {
	sum := sha256.Sum256([]byte("entity\x00" + scope + "\x00" + name))
	id := int64(binary.BigEndian.Uint64(sum[:8]) & (1<<idBits - 1))
	if id == 0 {
		id = 1
	}
	return id
}

// entityUUID is the object id of the entity named name in scope.
func entityUUID(scope, name string) strfmt.UUID {
	return strfmt.UUID(uuid.NewSHA1(namespace, []byte("entity\x00"+scope+"\x00"+name)).String())
}

// mentionUUID is the object id of the mentions in a chunk of the
// entities of a compendium scope.
func mentionUUID(scope string, chunk int64) strfmt.UUID {
	return strfmt.UUID(uuid.NewSHA1(namespace, []byte("mentions\x00"+scope+"\x00"+idText(chunk))).String())
}

// factsUUID is the object id of the compendium's facts of a note, and
// factsStateUUID that of their state.
func factsUUID(key string) strfmt.UUID {
	return strfmt.UUID(uuid.NewSHA1(namespace, []byte("facts\x00"+key)).String())
}

func factsStateUUID(key string) strfmt.UUID {
	return strfmt.UUID(uuid.NewSHA1(namespace, []byte("facts-state\x00"+key)).String())
}

// memoryUUID is the object id of the memory entry id, memoryIDUUID that
// of its id's reservation, and memoryCounterUUID that of the next id to
// try.
func memoryUUID(id string) strfmt.UUID {
	return strfmt.UUID(uuid.NewSHA1(namespace, []byte("memory\x00"+id)).String())
}

func memoryIDUUID(id string) strfmt.UUID {
	return strfmt.UUID(uuid.NewSHA1(namespace, []byte("memory-id\x00"+id)).String())
}

func memoryCounterUUID() strfmt.UUID {
	return strfmt.UUID(uuid.NewSHA1(namespace, []byte("memory-counter")).String())
}

// memorySlotUUID is the object id of the active slot of (scope, key).
func memorySlotUUID(scope, key string) strfmt.UUID {
	return strfmt.UUID(uuid.NewSHA1(namespace, []byte("memory-slot\x00"+scope+"\x00"+key)).String())
}
