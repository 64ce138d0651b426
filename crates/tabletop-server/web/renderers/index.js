// Games with a drawing of their own: each NAME here has a module
// ./NAME.js (served from /web/renderers/NAME.js, listed in src/web.rs)
// exporting render(view, board) and, optionally,
// legal(view, container, play). Any other game uses ./generic.js.
export const RENDERERS = [];

export async function rendererFor(gameSpec) {
  const name = gameSpec.split('(')[0];
  if (RENDERERS.includes(name)) {
    try {
      return await import(`./${name}.js`);
    } catch (e) {
      console.warn(`renderer ${name} failed to load, using the generic one`, e);
    }
  }
  return import('./generic.js');
}
