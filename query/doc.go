// Package query reads a question before retrieval, without a model: which
// sessions it restricts the search to, and whether it asks about an
// entity's arc over the campaign rather than one fact.
//
// It is pure: data in, data out, no I/O and no dependence on the index.
// The caller passes the session numbers the index holds and gets back
// Analysis. Analyze guarantees, for any input (including invalid UTF-8 and
// unsorted or repeated known numbers):
//
//   - it never panics;
//   - Sessions is nil (no filter) or a non-empty, ascending list of
//     distinct numbers, every one of them in known;
//   - Said is empty exactly when Sessions is nil, and otherwise is made of
//     verbatim pieces of the question;
//   - Kind is KindArc or KindLookup.
//
// A filter is read only where the question names sessions as a constraint:
// "sesión"/"session" with a number next to it ("en la sesión 12", "la
// sesión doce", "sessions 3, 4 and 7", "entre la sesión 3 y la 5", "S12"),
// or with a relative word ("la última sesión", "las tres primeras
// sesiones", "the last session"). A session named by what happened in it
// ("la sesión en la que llegamos a Galerna", "la primera sesión en la que
// aparece Harbin") and numbers with no session word ("capítulo 12",
// "12 monedas") give no filter; so does a filter that matches no session
// the index holds, so that the caller falls back to searching everything.
//
// The rules where a reading had to be chosen:
//
//   - "S12" (S glued to digits, any case) is session 12, except after a
//     word that names a place or a thing ("sala S12", "room S12");
//     "sesion12" and "session12" are read too.
//   - A list keeps the numbers the index holds ("sesiones 3 y 500" with no
//     session 500 is session 3); a range keeps the sessions inside it, in
//     either order ("de la 5 a la 3").
//   - "y"/"and" joins a range only after "entre"/"between"; elsewhere it
//     joins a list. A dash between numbers is a range ("3-5", "S3-S5").
//   - Open ranges: "desde", "a partir de", "since", "from" (with no end)
//     and "después de", "tras", "after" (exclusive) run to the last
//     session; "hasta", "until", "up to" and "antes de", "before"
//     (exclusive) from the first.
//   - As of a session: "hasta la sesión 20", "antes de la sesión 21",
//     "a la altura de la sesión 20", "as of session 20", "by session 20",
//     "up to session 20", "before session 21" set Until (20) besides the
//     sessions up to it. So does one numbered session in a question about
//     a lasting state ("en la sesión 20, ¿seguía vivo?", "who led the
//     guild in session 20?"): the state then is told in any session up to
//     it. Where something is ("¿dónde estaba en la sesión 12?") is asked
//     of that session only. Several mentions give no Until.
//   - State questions ("¿sigue vivo?", "¿dónde está ahora?", "¿quién
//     lidera...?", "is Kael still alive?", "who leads...?") set State.
//   - Relative references count positions in the known sessions: "la
//     sesión anterior" and "la sesión pasada" mean the last one; a plural
//     with no number ("las últimas sesiones", "the first sessions") means
//     DefaultRelativeCount (3); "la penúltima sesión" is the one before
//     the last. Other ordinals ("la quinta sesión") are not read, since it
//     is unclear whether they mean session 5 or the fifth one held.
//   - A relative reference followed by a relative clause ("que", "en la
//     que", "donde", "where", "that", "in which") describes a session
//     instead of naming one and gives no filter; so does "la sesión
//     anterior a ...".
//   - Number words: Spanish and English up to 999 ("ciento noventa y
//     nueve", "one hundred and five"); "un" and "una" are not read as one.
package query
