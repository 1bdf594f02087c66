-- Visible-article counts per blog and per category, kept by triggers, so the category navigation and the
-- blog list (on most pages) read a column instead of counting ~100,000 index entries each time.
-- visible is (keep_override IS NULL AND junk = 0) OR keep_override = 1, stored on articles (migration 1).

ALTER TABLE blogs ADD COLUMN visible_articles INTEGER NOT NULL DEFAULT 0;
ALTER TABLE categories ADD COLUMN visible_articles INTEGER NOT NULL DEFAULT 0;

UPDATE blogs SET visible_articles =
  (SELECT COUNT(*) FROM articles a WHERE a.blog_id = blogs.id AND a.visible = 1);
UPDATE categories SET visible_articles =
  (SELECT COUNT(*) FROM articles a WHERE a.category = categories.slug AND a.visible = 1);

CREATE TRIGGER articles_count_insert AFTER INSERT ON articles WHEN new.visible = 1 BEGIN
  UPDATE blogs SET visible_articles = visible_articles + 1 WHERE id = new.blog_id;
  UPDATE categories SET visible_articles = visible_articles + 1 WHERE slug = new.category;
END;

CREATE TRIGGER articles_count_delete AFTER DELETE ON articles WHEN old.visible = 1 BEGIN
  UPDATE blogs SET visible_articles = visible_articles - 1 WHERE id = old.blog_id;
  UPDATE categories SET visible_articles = visible_articles - 1 WHERE slug = old.category;
END;

CREATE TRIGGER articles_count_update AFTER UPDATE OF visible, category, blog_id ON articles
WHEN old.visible IS NOT new.visible OR old.category IS NOT new.category OR old.blog_id IS NOT new.blog_id BEGIN
  UPDATE blogs SET visible_articles = visible_articles - 1 WHERE id = old.blog_id AND old.visible = 1;
  UPDATE categories SET visible_articles = visible_articles - 1 WHERE slug = old.category AND old.visible = 1;
  UPDATE blogs SET visible_articles = visible_articles + 1 WHERE id = new.blog_id AND new.visible = 1;
  UPDATE categories SET visible_articles = visible_articles + 1 WHERE slug = new.category AND new.visible = 1;
END;
