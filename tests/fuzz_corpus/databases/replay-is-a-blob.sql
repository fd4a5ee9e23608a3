-- a replay stored as bytes
-- expect: replay: wants JSON text
UPDATE attempts SET replay = X'626C6F62';
