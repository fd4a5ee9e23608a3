-- a replay that is not JSON
-- expect: replay: not JSON
UPDATE attempts SET replay = 'not json';
