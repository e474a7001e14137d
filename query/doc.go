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
package query
