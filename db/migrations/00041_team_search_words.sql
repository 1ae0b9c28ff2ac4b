-- +goose Up
-- The team search finds a person by the start of a word of their name or
-- of their email's local part, no longer by any part of either (a
-- directory could be paged through with substrings). search_words is the
-- text those words are read from: lower case, a space before each word,
-- words split at spaces and . ' + _ - (account.ParseSearch splits the
-- query alike), so a LIKE ' <word start>%' pattern finds a word's start.
-- +goose StatementBegin
CREATE FUNCTION search_words(t text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT ' ' || regexp_replace(lower(coalesce(t, '')), '[ .''+_-]+', ' ', 'g')
$$;
-- +goose StatementEnd
DROP INDEX profiles_search_idx;
CREATE INDEX profiles_search_words_idx ON profiles
    USING gin (search_words(display_name) gin_trgm_ops, search_words(split_part(email, '@', 1)) gin_trgm_ops)
    WHERE email_confirmed_at IS NOT NULL;

-- +goose Down
DROP INDEX profiles_search_words_idx;
DROP FUNCTION search_words(text);
CREATE INDEX profiles_search_idx ON profiles
    USING gin ((lower(email) || ' ' || lower(coalesce(display_name, ''))) gin_trgm_ops)
    WHERE email_confirmed_at IS NOT NULL;
