// featdump: KataGo's own input features (NNInputs::fillRowV7) for positions read from
// stdin, the reference of tests/test_net_inputs.py (katago_features.json.gz).
//
// Build it in a KataGo checkout (the folder holding cpp/), with no net backend:
//   g++ -std=c++17 -O2 -Icpp/external -o featdump featdump.cpp \
//     cpp/core/{global,hash,rand,md5,sha2,fancymath,test,timer,multithread}.cpp \
//     cpp/core/{bsearch,datetime,rand_helpers,base64}.cpp \
//     cpp/game/{board,boardhistory,rules,graphhash}.cpp cpp/neuralnet/nninputs.cpp -lpthread -lz
//
// A position, whitespace-separated:
//   pos SIZE KOMI RULES NEXT    RULES: a name or a kata-set-rules string; NEXT: B, W or -
//   setup N  N stones C:X,Y     C: B or W; X from the left, Y from the top, from 0
//   init C                      the side to move at the start
//   moves M  M moves C:X,Y or C:pass
// It is set up as KataGo's GTP engine does (set_free_handicap, then play: a player
// moving twice starts the history again, the clean-up phase prevented), then the
// features of NEXT to move (another side than the history's starts it again) are printed:
// "features", 22 lines of SIZE*SIZE 0/1, one line of 19 numbers.
#include "cpp/neuralnet/nninputs.h"
#include "cpp/game/boardhistory.h"
#include <iostream>
#include <sstream>
using namespace std;

static Loc parseLoc(const string& s, int n) {
  if(s == "pass") return Board::PASS_LOC;
  size_t c = s.find(',');
  int x = stoi(s.substr(0,c)); int y = stoi(s.substr(c+1));
  return Location::getLoc(x,y,n);
}

int main() {
  Board::initHash();
  string tok;
  while(cin >> tok) {
    if(tok != "pos") { cerr << "bad " << tok << endl; return 1; }
    int n; float komi; string rulesStr, nextStr;
    cin >> n >> komi >> rulesStr >> nextStr;
    Rules rules = Rules::parseRules(rulesStr);
    rules.komi = komi;
    int ns; cin >> tok >> ns;
    Board board(n,n);
    vector<Move> setup;
    Player initPla = P_BLACK;
    for(int i=0;i<ns;i++) { cin >> tok; Player p = tok[0]=='B'?P_BLACK:P_WHITE; setup.push_back(Move(parseLoc(tok.substr(2),n),p)); }
    string ip; cin >> tok >> ip; initPla = ip=="B"?P_BLACK:P_WHITE;
    if(!board.setStonesFailIfNoLibs(setup)) { cerr << "setup fail" << endl; return 1; }
    BoardHistory hist(board,initPla,rules,0,false);
    hist.setAssumeMultipleStartingBlackMovesAreHandicap(true);
    Player pla = initPla;
    int nm; cin >> tok >> nm;
    for(int i=0;i<nm;i++) {
      cin >> tok; Player p = tok[0]=='B'?P_BLACK:P_WHITE; Loc loc = parseLoc(tok.substr(2),n);
      if(!hist.isLegalTolerant(board,loc,p)) { cerr << "illegal move " << tok << endl; return 1; }
      if(p != pla) {
        board.clearSimpleKoLoc();
        bool a = hist.assumeMultipleStartingBlackMovesAreHandicap;
        hist.clear(board,p,rules,hist.encorePhase);
        hist.setAssumeMultipleStartingBlackMovesAreHandicap(a);
        pla = p;
      }
      hist.makeBoardMoveAssumeLegal(board,loc,pla,NULL,true);
      pla = getOpp(pla);
    }
    Player nextPla = pla;
    if(nextStr != "-") nextPla = nextStr=="B"?P_BLACK:P_WHITE;
    if(nextPla != hist.presumedNextMovePla) {
      board.clearSimpleKoLoc();
      hist.clear(board,nextPla,hist.rules,hist.encorePhase);
    }
    MiscNNInputParams params;
    int len = n;
    vector<float> bin(NNInputs::NUM_FEATURES_SPATIAL_V7*len*len);
    vector<float> glob(NNInputs::NUM_FEATURES_GLOBAL_V7);
    NNInputs::fillRowV7(board,hist,nextPla,params,len,len,false,bin.data(),glob.data());
    cout << "features" << endl;
    for(int f=0; f<NNInputs::NUM_FEATURES_SPATIAL_V7; f++) {
      for(int i=0;i<len*len;i++) cout << (bin[f*len*len+i] != 0 ? '1' : '0');
      cout << endl;
    }
    for(int g=0; g<NNInputs::NUM_FEATURES_GLOBAL_V7; g++) cout << glob[g] << " ";
    cout << endl;
    cout.flush();
  }
  return 0;
}
