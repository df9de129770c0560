// What a player chose for the view on this device, shared by the solo board
// and the room pages: shading blocked tiles (the half-dark tile). Rotate
// mode is kept by the camera itself (camera.js).

const SHADING_KEY = "tiles.shading";

export function shadingOn() {
  try {
    return localStorage.getItem(SHADING_KEY) !== "0";
  } catch {
    return true;
  }
}

export function keepShading(on) {
  try {
    localStorage.setItem(SHADING_KEY, on ? "1" : "0");
  } catch {
    // Private mode: the choice lasts for this page only.
  }
}
