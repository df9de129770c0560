// What the pages hang on `window` for the browser tests and tools
// (board/game.js, rooms/room.js, rooms/watch.js). Types only: nothing here
// is bundled.

interface Window {
    tilesBoard: object;
    tilesRoom: object;
    tilesWatch: object;
}
