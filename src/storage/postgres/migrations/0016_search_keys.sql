-- The search index holds, beside an article's word ids, where the article lies among the ids: four keys
-- naming the blocks of 4,096, 32,768, 262,144 and 2,097,152 ids its id falls in (docs/storage.md, "Blocks
-- of ids in the search index"). A search takes its candidates slice by slice of ids, newest first; a slice was the
-- GIN index's matches ANDed with a primary-key range, whose bitmap costs about 0.1 us an id of the range
-- whatever the matches: 50 ms of a 90 ms slice of 430,000 ids for a word beside a common one at a million
-- articles. Asked for the slice's blocks too, the GIN index intersects them with the words' postings
-- itself, skipping through the blocks' lists by the rarer word's, and no range is built.
--
-- The keys are 64-bit: a word id is a 32-bit value, a block key is (level + 1) * 2^40 + (id >> shift), at or
-- above 2^40, so no word shares a block's key. The shifts and the offsets are fixed here and in
-- search_run.cpp (search_range_keys), which names the blocks a slice covers; a test compares the two.
CREATE FUNCTION longread_search_keys(words INT4[], id BIGINT) RETURNS INT8[]
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN words::INT8[] || ARRAY[1099511627776 + (id >> 12), 2199023255552 + (id >> 15),
                                3298534883328 + (id >> 18), 4398046511104 + (id >> 21)];

-- The index replaces the one over the ids alone: the same rows, and four more keys a row.
DROP INDEX IF EXISTS articles_search_words;
CREATE INDEX articles_search_keys ON articles USING gin (longread_search_keys(search_words, id))
  WHERE visible = 1 AND search_words IS NOT NULL;

-- The index of the newest articles is made over the same keys from now on (the search index's upkeep builds
-- it again at its next run).
DO $$
DECLARE
  name TEXT;
BEGIN
  FOR name IN SELECT c.relname FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
              WHERE i.indrelid = 'articles'::regclass AND c.relname LIKE 'articles\_search\_recent\_%'
  LOOP
    EXECUTE format('DROP INDEX %I', name);
  END LOOP;
END $$;
