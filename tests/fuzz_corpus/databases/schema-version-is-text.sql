-- the schema version is a word
-- expect: not a version number
UPDATE schema_version SET version = 'two';
