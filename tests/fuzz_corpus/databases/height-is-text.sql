-- a height written as a word
-- expect: height_mm
UPDATE attempts SET height_mm = 'tall';
