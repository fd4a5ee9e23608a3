-- fell is neither 0 nor 1
-- expect: fell: wants 0 or 1
UPDATE attempts SET fell = 7;
