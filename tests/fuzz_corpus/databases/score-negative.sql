-- a negative score
-- expect: score: wants a whole number
UPDATE attempts SET score = -3;
