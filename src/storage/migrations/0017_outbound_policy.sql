-- The outbound request policy (docs/fetch.md, "Outbound request policy"). A blog's full-text pages are
-- fetched only from its own site; `allowed_hosts` lists the other hosts the operator allows for it
-- (`longread blogs edit ID --allow-host HOST`), blank-separated, lower case; '' for every existing blog.
-- `full_text_error` says why a summary-only entry's page was not used ("refused: 10.0.0.1 is a private
-- address ...", "HTTP 404"); '' when it was read or never tried. Portable: plain ADD COLUMN with constant
-- defaults.
ALTER TABLE blogs ADD COLUMN allowed_hosts TEXT NOT NULL DEFAULT '';
ALTER TABLE articles ADD COLUMN full_text_error TEXT NOT NULL DEFAULT '';
