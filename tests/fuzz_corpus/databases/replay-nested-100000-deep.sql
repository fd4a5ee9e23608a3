-- a replay nested 100,000 deep (zeroblob's hex digits turned into brackets)
-- expect: replay: not JSON, or nested
UPDATE attempts SET replay = replace(hex(zeroblob(100000)), '00', '[') || replace(hex(zeroblob(100000)), '00', ']');
