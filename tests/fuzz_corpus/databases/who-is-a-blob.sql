-- a player's name stored as bytes with control characters
-- expect: who: wants printable text
UPDATE attempts SET who = X'0001';
