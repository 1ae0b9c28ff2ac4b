package db

import "strings"

// likeEscaper escapes LIKE's wildcards and its escape character.
var likeEscaper = strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)

// LikeContains is the LIKE pattern that matches text holding s anywhere:
// s with LIKE's wildcards escaped, between two %. The queries that take it
// compare it with lower-cased text, so callers lower-case s.
func LikeContains(s string) string { return "%" + likeEscaper.Replace(s) + "%" }

// LikeWordPrefix is the LIKE pattern that matches text holding a word
// that starts with s, in text that begins with a space and has one space
// between its words: " " + s after a space, with LIKE's wildcards
// escaped. The queries that take it compare it with lower-cased text, so
// callers lower-case s.
func LikeWordPrefix(s string) string { return "% " + likeEscaper.Replace(s) + "%" }
