-- a score written as a word
-- expect: score: wants a whole number
UPDATE attempts SET score = 'many';
