-- the date of play is a word
-- expect: when
UPDATE attempts SET played_at = 'yesterday';
