/** Room membership of chat connections: a room exists while it has members. */
export class ChatRooms {
  private readonly members = new Map<string, Set<string>>();

  /** Adds the connection; returns the room's member count. */
  join(roomId: string, connectionId: string): number {
    let room = this.members.get(roomId);
    if (room === undefined) {
      room = new Set();
      this.members.set(roomId, room);
    }
    room.add(connectionId);
    return room.size;
  }

  /** Removes the connection; an emptied room is deleted. Returns whether it was a member. */
  leave(roomId: string, connectionId: string): boolean {
    const room = this.members.get(roomId);
    if (room === undefined || !room.delete(connectionId)) return false;
    if (room.size === 0) this.members.delete(roomId);
    return true;
  }

  /** Removes the connection from every room (on disconnect). */
  leaveAll(connectionId: string): void {
    for (const roomId of [...this.members.keys()]) this.leave(roomId, connectionId);
  }

  membersOf(roomId: string): readonly string[] {
    return [...(this.members.get(roomId) ?? [])];
  }

  isMember(roomId: string, connectionId: string): boolean {
    return this.members.get(roomId)?.has(connectionId) === true;
  }

  get size(): number {
    return this.members.size;
  }
}
